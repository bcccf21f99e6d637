// The fast path of the service's JSON Lines batches (cpp/include/chinese_poker/round_lines.hpp): read the
// common shape of rounds, settle them and write their net lines, the GIL released; None whenever the body
// is not of that shape, so that the caller takes its general path.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>
#include <vector>

#include "chinese_poker/round_lines.hpp"
#include "chinese_poker/round_output.hpp"
#include "chinese_poker/settle.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

std::size_t round_limit(py::ssize_t max_rounds) {
  if (max_rounds < 1) throw py::value_error("max_rounds must be at least 1, got " + std::to_string(max_rounds));
  return static_cast<std::size_t>(max_rounds);
}

// The answers as the signatures (and the stub) spell them: a tuple, or None.
using ReadAnswer = py::typing::Optional<
    py::typing::Tuple<py::array_t<std::uint8_t>, py::typing::List<py::typing::Union<py::int_, py::str>>, bool>>;
using SettleAnswer = py::typing::Optional<py::typing::Tuple<py::bytes, bool>>;
// The output of a chunk, where each round's output ends (native uint64, as bytes), and the rounds left to
// the general path as (round index, 0-based line in the chunk, first byte, end byte).
using ChunkAnswer =
    py::typing::Tuple<py::bytes, py::bytes, py::typing::List<py::typing::Tuple<int, int, int, int>>, int>;

int player_limit(int max_players) {
  if (max_players < kMinPlayers || max_players > kMaxPlayers) {
    throw py::value_error("max_players must be 2 to 6, got " + std::to_string(max_players));
  }
  return max_players;
}

// (lines, ends, left, line feeds) as the chunk functions answer: `ends` as native unsigned 64-bit integers
// (bytes, so that reading a chunk needs no numpy), the rounds of `scan` left to the general path as (round
// index, line in the chunk, first byte, end byte), and the chunk's line feeds (counted once, by the scan).
py::tuple answer(const RoundScan& scan, const std::string& out, const std::vector<std::size_t>& ends) {
  std::vector<std::uint64_t> wide(ends.begin(), ends.end());
  const py::bytes line_ends(reinterpret_cast<const char*>(wide.data()), wide.size() * sizeof(std::uint64_t));
  py::list left;
  for (std::size_t r = 0; r < scan.rounds.size(); ++r) {
    const ScannedRound& round = scan.rounds[r];
    if (!round.read) left.append(py::make_tuple(r, round.line, round.begin, round.end));
  }
  return py::make_tuple(py::bytes(out), line_ends, left, scan.line_feeds);
}

// What a rules value resolves to, as the core's writers take it.
const RulesSpec& view_of(const RulesSpec& rules) { return rules; }
OutputRules view_of(const HeldOutputRules& rules) { return rules.view(); }
void check_resolved(const RulesSpec& rules) { check_rules(rules); }
void check_resolved(const HeldOutputRules& rules) { check_rules(rules.spec); }

// A JSON Lines stream written a chunk at a time by the core: each chunk scanned, its rounds settled and their
// output written with the GIL released, every "rules" value resolved once for the whole stream (by the
// caller's `resolve`, under the GIL), and the scan's and the output's buffers kept from one chunk to the
// next. `Held` is what a rules value resolves to, `View` what the writer takes of it. One call at a time: a
// second thread's call waits, without the GIL, for the first to finish.
template <class Held, class View>
class ChunkWriter {
 public:
  using Resolve = py::typing::Callable<py::typing::List<py::typing::Optional<Held>>(py::typing::List<py::bytes>)>;

  ChunkWriter(Resolve resolve, const Held& fallback, int max_players, bool read_rules, bool ascii_ids,
              const py::object& threads)
      : parallel_(parallel_from(threads)),
        resolve_(std::move(resolve)),
        fallback_(fallback),
        max_players_(player_limit(max_players)),
        read_rules_(read_rules),
        ascii_ids_(ascii_ids) {
    check_resolved(fallback_);
  }
  virtual ~ChunkWriter() = default;
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  // `chunk`: bytes, or any one-dimensional buffer of bytes (the reader's reused bytearray, through a
  // memoryview), held for the call.
  ChunkAnswer write(const py::buffer& chunk, std::int64_t first_position) {
    const py::buffer_info bytes = chunk.request();
    if (bytes.ndim != 1 || bytes.itemsize != 1 || (bytes.size > 1 && bytes.strides[0] != 1)) {
      throw py::type_error("chunk must be bytes or a contiguous buffer of bytes");
    }
    const std::string_view text(static_cast<const char*>(bytes.ptr), static_cast<std::size_t>(bytes.size));
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    scan_round_lines(text, first_position, max_players_, read_rules_, ascii_ids_, &scan_);
    std::vector<const View*> rules(scan_.rules.size(), nullptr);
    std::vector<View> views;
    views.reserve(scan_.rules.size());  // no reallocation below: the pointers stay valid
    {
      py::gil_scoped_acquire acquire;
      resolve_new(text);
    }
    for (std::size_t k = 0; k < rules.size(); ++k) {
      const auto& [begin, length] = scan_.rules[k];
      const Held* held = known_.find(std::string(text.substr(begin, length)))->second.get();
      if (held == nullptr) continue;
      views.push_back(view_of(*held));
      rules[k] = &views.back();
    }
    out_.clear();
    emit(text, rules, view_of(fallback_));
    py::gil_scoped_acquire acquire;
    return ChunkAnswer(answer(scan_, out_, ends_));
  }

 protected:
  // Settles the read rounds of scan_ and writes their output into out_ and ends_ (the GIL released).
  virtual void emit(std::string_view text, const std::vector<const View*>& rules, const View& fallback) = 0;

  RoundScan scan_;
  Parallel parallel_;
  std::string out_;
  std::vector<std::size_t> ends_;

 private:
  // The chunk's rules values that no earlier chunk held, resolved and kept.
  void resolve_new(std::string_view text) {
    py::list values;
    std::vector<std::string> fresh;
    for (const auto& [begin, length] : scan_.rules) {
      std::string value(text.substr(begin, length));
      if (known_.count(value) == 0 && std::find(fresh.begin(), fresh.end(), value) == fresh.end()) {
        values.append(py::bytes(value));
        fresh.push_back(std::move(value));
      }
    }
    if (fresh.empty()) return;
    const py::list resolved = resolve_(values);
    if (resolved.size() != fresh.size()) throw py::value_error("the resolver must give one rules per value");
    for (std::size_t k = 0; k < fresh.size(); ++k) {
      std::unique_ptr<Held> held;
      if (!resolved[k].is_none()) {
        held = std::make_unique<Held>(resolved[k].template cast<const Held&>());
        check_resolved(*held);
      }
      known_.emplace(std::move(fresh[k]), std::move(held));
    }
  }

  Resolve resolve_;
  Held fallback_;
  int max_players_;
  bool read_rules_;
  bool ascii_ids_;
  std::unordered_map<std::string, std::unique_ptr<Held>> known_;  // null: refused by the resolver
  std::mutex mutex_;
};

// The net lines of a stream (NetChunkWriter in Python).
class NetChunkWriter final : public ChunkWriter<RulesSpec, RulesSpec> {
 public:
  using ChunkWriter::ChunkWriter;

 private:
  void emit(std::string_view text, const std::vector<const RulesSpec*>& rules, const RulesSpec& fallback) override {
    settle_scanned_net(text, &scan_, rules, fallback, parallel_, &out_, &ends_);
  }
};

// The full output of a stream (FullChunkWriter in Python).
class FullChunkWriter final : public ChunkWriter<HeldOutputRules, OutputRules> {
 public:
  FullChunkWriter(Resolve resolve, const HeldOutputRules& fallback, std::string engine_version, bool ascii_only,
                  bool indented, int max_players, bool read_rules, const py::object& threads)
      : ChunkWriter(std::move(resolve), fallback, max_players, read_rules, false, threads),
        engine_version_(std::move(engine_version)) {
    format_.engine_version = engine_version_;
    format_.ascii_only = ascii_only;
    format_.indented = indented;
  }

 private:
  void emit(std::string_view text, const std::vector<const OutputRules*>& rules, const OutputRules& fallback) override {
    write_scanned_full(text, &scan_, rules, fallback, format_, parallel_, &out_, &ends_, &columns_);
  }

  std::string engine_version_;
  RoundOutputFormat format_;
  ScannedColumns columns_;
};

}  // namespace

void register_round_lines(py::module_& m) {
  m.def(
      "read_round_lines",
      [](const py::bytes& body, py::ssize_t max_rounds, int max_players) -> ReadAnswer {
        const std::size_t rounds_limit = round_limit(max_rounds);
        const int players_limit = player_limit(max_players);
        const std::string_view text = body;
        RoundLines lines;
        bool ok = false;
        {
          py::gil_scoped_release release;
          ok = read_round_lines(text, rounds_limit, players_limit, &lines);
        }
        if (!ok) return ReadAnswer(py::none());
        py::array_t<std::uint8_t> cards({static_cast<py::ssize_t>(lines.rounds),
                                         static_cast<py::ssize_t>(lines.players), py::ssize_t{13}});
        std::memcpy(cards.mutable_data(), lines.cards.data(), lines.cards.size());
        py::list ids;
        for (const RoundLineId& id : lines.ids) {
          if (id.kind == RoundIdKind::kString) {
            ids.append(py::str(text.substr(id.begin, id.length)));
          } else {
            ids.append(py::int_(id.value));
          }
        }
        return ReadAnswer(py::make_tuple(cards, ids, lines.more));
      },
      py::arg("body"), py::arg("max_rounds"), py::arg("max_players"),
      "The rounds of a JSON Lines body of the common shape (players with front, middle and back, optional\n"
      "name, optional round id; docs/SERVICE.md): (cards uint8 (R, P, 13), ids, more), ids each the round's\n"
      "id or its 1-based position, more: a further round follows the max_rounds read. None when any line is\n"
      "of another shape (or a card is bad or repeated): the general reader then says what. Releases the GIL.");

  m.def(
      "settle_net_lines",
      [](const py::bytes& body, const RulesSpec& rules, py::ssize_t max_rounds, int max_players,
         const py::object& threads) -> SettleAnswer {
        check_rules(rules);
        const std::size_t rounds_limit = round_limit(max_rounds);
        const int players_limit = player_limit(max_players);
        const Parallel parallel = parallel_from(threads);
        const std::string_view text = body;
        std::string out;
        bool more = false, ok = false;
        {
          py::gil_scoped_release release;
          ok = settle_net_lines(text, rules, rounds_limit, players_limit, parallel, &out, &more);
        }
        if (!ok) return SettleAnswer(py::none());
        return SettleAnswer(py::make_tuple(py::bytes(out), more));
      },
      py::arg("body"), py::arg("rules"), py::arg("max_rounds"), py::arg("max_players"), py::arg("threads") = 1,
      "A JSON Lines body of the common shape (see read_round_lines) settled under `rules` and written as net\n"
      "lines, {\"id\":ID,\"net\":[...]} each (docs/JSON_FORMAT.md): (lines bytes, more). None when the body\n"
      "is of another shape, the rules add suits or jokers, or the core rejects a round. Releases the GIL.");
  py::class_<NetChunkWriter>(
      m, "NetChunkWriter",
      "The net lines ({\"id\":ID,\"net\":[...]}, docs/JSON_FORMAT.md) of a JSON Lines stream written a chunk\n"
      "at a time: each chunk read, settled and written by the core (cpp/include/chinese_poker/round_lines.hpp,\n"
      "scan_round_lines), every round the reader takes, the GIL released. The rules, the reading's and the\n"
      "output's buffers are kept from one chunk to the next.")
      .def(py::init<NetChunkWriter::Resolve, const RulesSpec&, int, bool, bool, const py::object&>(),
           py::arg("resolve"), py::arg("fallback"), py::arg("max_players") = kMaxPlayers, py::arg("read_rules") = true,
           py::arg("ascii_ids") = false, py::arg("threads") = 1,
           "resolve: called with the distinct `rules` values (bytes) a chunk holds that no earlier chunk did,\n"
           "it gives each one's rules or None (its rounds are then left to the general path); fallback: the\n"
           "rules of a round naming none (of every round when read_rules is false); max_players: a round with\n"
           "more is left; ascii_ids: a round whose id is not ASCII is left (the lines are then ASCII). The\n"
           "bytes do not depend on `threads`.")
      .def("write", &NetChunkWriter::write, py::arg("chunk"), py::arg("first_position"),
           "Whole JSON Lines (no byte order mark) whose first round is the stream's round first_position\n"
           "(1-based): (lines, ends, left, line_feeds): ends, native uint64 as bytes, ends[r] where round r's\n"
           "line ends in lines (a left round writes none); left the rounds for the general path as (round,\n"
           "line, begin, end); line_feeds the chunk's line feeds.");
  py::class_<FullChunkWriter>(
      m, "FullChunkWriter",
      "The full output (docs/JSON_FORMAT.md) of a JSON Lines stream written a chunk at a time: each chunk\n"
      "read, settled and written by the core, every round the reader takes (as NetChunkWriter), the GIL\n"
      "released. The rules, the reading's and the output's buffers are kept from one chunk to the next.")
      .def(py::init<FullChunkWriter::Resolve, const HeldOutputRules&, std::string, bool, bool, int, bool,
                    const py::object&>(),
           py::arg("resolve"), py::arg("fallback"), py::arg("engine_version"), py::arg("ascii_only") = false,
           py::arg("indented") = false, py::arg("max_players") = kMaxPlayers, py::arg("read_rules") = true,
           py::arg("threads") = 1,
           "resolve: called with the distinct `rules` values (bytes) a chunk holds that no earlier chunk did,\n"
           "it gives each one's OutputRules or None (its rounds are then left); fallback: the OutputRules of a\n"
           "round naming none (of every round when read_rules is false); ascii_only: every non-ASCII character\n"
           "escaped; indented: each round as an item of a list dumped with indent 2, preceded by ',\\n  '\n"
           "(else compact, each round then a newline); max_players: a round with more is left. The bytes do\n"
           "not depend on `threads`.")
      .def("write", &FullChunkWriter::write, py::arg("chunk"), py::arg("first_position"),
           "Whole JSON Lines (no byte order mark) whose first round is the stream's round first_position\n"
           "(1-based): (text, ends, left, line_feeds) as NetChunkWriter.write answers.");
}

}  // namespace chinese_poker::bindings
