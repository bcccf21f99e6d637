// RoundOutputWriter: rounds gathered one by one (under the GIL), then settled and written as their full
// output in one call with the GIL released (cpp/include/chinese_poker/round_output.hpp).
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "chinese_poker/round_output.hpp"
#include "chinese_poker/settle.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// The UTF-8 of a str; a lone surrogate (which json.loads may give) in its 3-byte form.
void append_utf8(py::handle text, std::string* out) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data != nullptr) {
    out->append(data, static_cast<std::size_t>(size));
    return;
  }
  PyErr_Clear();
  const py::object bytes = py::reinterpret_steal<py::object>(
      PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
  if (!bytes) throw py::error_already_set();
  char* raw = nullptr;
  if (PyBytes_AsStringAndSize(bytes.ptr(), &raw, &size) != 0) throw py::error_already_set();
  out->append(raw, static_cast<std::size_t>(size));
}

// Per-player flags from a sequence of bools (or None: all false).
bool flags_into(const py::object& values, std::size_t players, std::vector<std::uint8_t>* out) {
  if (values.is_none()) {
    out->insert(out->end(), players, 0);
    return false;
  }
  const py::sequence seq = values.cast<py::sequence>();
  if (static_cast<std::size_t>(py::len(seq)) != players) throw py::value_error("one flag per player is needed");
  bool any = false;
  for (const py::handle flag : seq) {
    const bool on = PyObject_IsTrue(flag.ptr()) == 1;
    any = any || on;
    out->push_back(on ? 1 : 0);
  }
  return any;
}

// An int64 from a Python int, or false when it does not fit (the round is then left to the general path).
bool int64_of(py::handle value, std::int64_t* out) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || (v == -1 && PyErr_Occurred() != nullptr)) {
    PyErr_Clear();
    return false;
  }
  *out = static_cast<std::int64_t>(v);
  return true;
}

class RoundOutputWriter {
 public:
  RoundOutputWriter(std::string engine_version, bool ascii_only, bool indented)
      : engine_version_(std::move(engine_version)) {
    format_.ascii_only = ascii_only;
    format_.indented = indented;
  }

  std::size_t add_rules(const HeldOutputRules& rules) {
    rules_.push_back(std::make_unique<HeldOutputRules>(rules));
    return rules_.size() - 1;
  }

  void add_round(std::uint32_t rules_index, const py::handle& id, const py::sequence& names, const py::bytes& cards,
                 const py::bytes& declared, const py::object& surrender, const py::object& fantasyland,
                 const py::object& stakes, const py::object& banker, const py::object& bets) {
    const std::string_view codes = cards;
    const std::size_t players = static_cast<std::size_t>(py::len(names));
    const std::string_view declared_flags = declared;
    if (codes.size() != 13 * players || declared_flags.size() != players || players < 2 || players > 6) {
      throw py::value_error("add_round: cards needs 13 codes and declared one flag per name");
    }
    for (const py::object* flags : {&surrender, &fantasyland}) {
      if (!flags->is_none() && static_cast<std::size_t>(py::len(*flags)) != players) {
        throw py::value_error("add_round: surrender and fantasyland need one flag per name");
      }
    }
    // The id: an integer as its decimal text, a str as a string to escape.
    if (PyLong_Check(id.ptr()) != 0) {
      text_ += py::str(id).cast<std::string>();
      id_is_json_.push_back(1);
    } else {
      append_utf8(id, &text_);
      id_is_json_.push_back(0);
    }
    offsets_.push_back(text_.size());
    for (const py::handle name : names) {
      append_utf8(name, &text_);
      offsets_.push_back(text_.size());
    }
    bool ok = true;
    // A stake or bet past int64 is left to the general path, which names it: the round is marked bad.
    std::uint8_t with_stakes = 0;
    if (!stakes.is_none()) {
      with_stakes = 1;
      for (const py::handle row : stakes) {
        for (const py::handle value : row) {
          std::int64_t v = 0;
          ok = int64_of(value, &v) && ok;
          stakes_.push_back(v);
        }
      }
    }
    std::int64_t seat = -1;
    if (!banker.is_none()) {
      ok = int64_of(banker, &seat) && ok;
      any_banker_ = true;
    }
    std::uint8_t with_bets = 0;
    if (!bets.is_none()) {
      with_bets = 1;
      for (const py::handle value : bets) {
        std::int64_t v = 0;
        ok = int64_of(value, &v) && ok;
        bets_.push_back(v);
      }
    }
    cards_.insert(cards_.end(), codes.begin(), codes.end());
    declared_.insert(declared_.end(), declared_flags.begin(), declared_flags.end());
    any_surrender_ = flags_into(surrender, players, &surrendered_) || any_surrender_;
    any_fantasyland_ = flags_into(fantasyland, players, &fantasyland_) || any_fantasyland_;
    has_stakes_.push_back(with_stakes);
    has_bets_.push_back(with_bets);
    banker_.push_back(seat);
    rules_index_.push_back(rules_index);
    players_.push_back(ok ? static_cast<std::uint8_t>(players) : std::uint8_t{0});
    // A refused round still takes its seats in the columns: mark its count apart so the columns stay aligned.
    seats_.push_back(static_cast<std::uint8_t>(players));
  }

  std::size_t size() const { return rules_index_.size(); }

  py::tuple write(std::size_t start) {
    if (start > size()) throw py::value_error("write: start is past the rounds held");
    // A refused round (players 0) keeps its place: the writer stops there, the columns of the rounds after
    // it are found through seats_, so such a round is written as a 0-player round the core refuses.
    std::vector<OutputRules> rules(rules_.size());
    for (std::size_t k = 0; k < rules_.size(); ++k) rules[k] = rules_[k]->view();
    RoundOutputBatch batch;
    batch.rounds = size();
    batch.rules = rules.data();
    batch.num_rules = rules.size();
    batch.rules_index = rules_index_.data();
    batch.cards = cards_.data();
    batch.declared = declared_.data();
    batch.surrendered = any_surrender_ ? surrendered_.data() : nullptr;
    batch.fantasyland = any_fantasyland_ ? fantasyland_.data() : nullptr;
    batch.has_stakes = has_stakes_.data();
    batch.stakes = stakes_.data();
    batch.banker = any_banker_ ? banker_.data() : nullptr;
    batch.has_bets = has_bets_.data();
    batch.bets = bets_.data();
    batch.text = text_;
    batch.offsets = offsets_.data();
    batch.id_is_json = id_is_json_.data();
    format_.engine_version = engine_version_;
    out_.clear();
    RoundOutputStatus status;
    {
      py::gil_scoped_release release;
      status = write_rounds(batch, start);
    }
    return py::make_tuple(py::bytes(out_.data(), out_.size()), status.next);
  }

  void clear() {
    rules_index_.clear();
    players_.clear();
    seats_.clear();
    cards_.clear();
    declared_.clear();
    surrendered_.clear();
    fantasyland_.clear();
    has_stakes_.clear();
    stakes_.clear();
    banker_.clear();
    has_bets_.clear();
    bets_.clear();
    text_.clear();
    offsets_.assign(1, 0);
    id_is_json_.clear();
    any_surrender_ = any_fantasyland_ = any_banker_ = false;
  }

 private:
  // Writes from `start`; a refused round stops it as the core's refusal would. The player counts the
  // writer reads are seats_ (so the columns stay aligned), and a refused round is stopped at here.
  RoundOutputStatus write_rounds(RoundOutputBatch batch, std::size_t start) {
    std::size_t end = start;
    while (end < batch.rounds && players_[end] != 0) ++end;
    batch.players = seats_.data();
    batch.rounds = end;
    RoundOutputStatus status = write_round_outputs(batch, start, format_, &out_);
    if (status.next == end && end < size()) status.error.status = SettleStatus::kBadPlayerCount;
    return status;
  }

  std::string engine_version_;
  RoundOutputFormat format_;
  std::vector<std::unique_ptr<HeldOutputRules>> rules_;
  std::vector<std::uint32_t> rules_index_;
  std::vector<std::uint8_t> players_, seats_, cards_, declared_, surrendered_, fantasyland_, has_stakes_, has_bets_;
  std::vector<std::int64_t> stakes_, banker_, bets_;
  std::string text_;
  std::vector<std::size_t> offsets_{0};
  std::vector<std::uint8_t> id_is_json_;
  bool any_surrender_ = false, any_fantasyland_ = false, any_banker_ = false;
  std::string out_;
};

}  // namespace

void register_round_output(py::module_& m) {
  py::class_<HeldOutputRules>(
      m, "OutputRules",
      "What one distinct rules put into each of its rounds' full output: the rules, the JSON text of their\n"
      "\"rules\" value as the output's dump settings write it, their digest, and which optional fields the\n"
      "players and pairs carry.")
      .def(py::init([](const RulesSpec& spec, std::string rules_json, std::string digest, bool fantasyland_cards,
                       bool ace_units, bool jokers, bool extended) {
             check_rules(spec);
             HeldOutputRules held;
             held.spec = spec;
             held.rules_json = std::move(rules_json);
             held.digest = std::move(digest);
             held.flags.fantasyland_cards = fantasyland_cards;
             held.flags.ace_units = ace_units;
             held.flags.jokers = jokers;
             held.flags.extended = extended;
             return held;
           }),
           py::arg("spec"), py::arg("rules_json"), py::arg("digest"), py::arg("fantasyland_cards"),
           py::arg("ace_units"), py::arg("jokers"), py::arg("extended"),
           "fantasyland_cards: each player carries fantasyland_cards (rules.fantasyland is not \"off\");\n"
           "ace_units: each player carries ace_units (ace_basis \"table\"); jokers: each player carries\n"
           "\"jokers\"; extended: every pair carries the real-table settlement fields.");
  py::class_<RoundOutputWriter>(
      m, "RoundOutputWriter",
      "Rounds gathered with add_round, then settled and written as their full output lines by write (the GIL\n"
      "released): the bytes of formats.round_settle.round_output dumped by cli.common.dumps.")
      .def(py::init<std::string, bool, bool>(), py::arg("engine_version"), py::arg("ascii_only"),
           py::arg("indented"),
           "ascii_only: every non-ASCII character escaped; indented: each round as an item of a list dumped\n"
           "with indent 2, preceded by ',\\n  ' (else compact, each round then a newline).")
      .def("add_rules", &RoundOutputWriter::add_rules, py::arg("rules"),
           "Rules the rounds may name (an OutputRules); returns their index for add_round.")
      .def("add_round", &RoundOutputWriter::add_round, py::arg("rules_index"), py::arg("id"), py::arg("names"),
           py::arg("cards"), py::arg("declared"), py::arg("surrender") = py::none(),
           py::arg("fantasyland") = py::none(), py::arg("stakes") = py::none(), py::arg("banker") = py::none(),
           py::arg("bets") = py::none(),
           "One round: its rules' index, id (str or int), names, 13 card codes per player (bytes), a declared\n"
           "flag per player (bytes) and the optional per-round inputs as settle takes them.")
      .def("write", &RoundOutputWriter::write, py::arg("start") = 0,
           "Settle and write rounds start, start + 1, ...: (the output bytes, the first round not written).\n"
           "That round (when it is not the last) did not settle here: the caller settles it its own way.")
      .def("clear", &RoundOutputWriter::clear, "Forget every round (the rules stay).")
      .def("__len__", &RoundOutputWriter::size);
  m.def(
      "strength_text",
      [](Strength strength) {
        std::string out;
        append_strength_text(strength, &out);
        return out;
      },
      py::arg("strength"), "The readable text of a valid row strength, as evaluation.describe gives it.");
}

}  // namespace chinese_poker::bindings
