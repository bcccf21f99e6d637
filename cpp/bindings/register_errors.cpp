// chinese_poker._core.InputError: the one exception type for bad input found by the core, a ValueError
// whose attributes say where (by index), so that the Python layer can name rounds and players.
#include <string>
#include <vector>

#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// Created once when the module is initialised, then only read.
PyObject* g_input_error = nullptr;

py::object index_or_none(std::int64_t v) { return v < 0 ? py::none() : py::object(py::int_(v)); }

}  // namespace

void register_errors(py::module_& m) {
  g_input_error = PyErr_NewExceptionWithDoc(
      "chinese_poker.InputError",
      "Bad input found by the core. A ValueError; kind says what (card_out_of_range, card_repeated, ...),\n"
      "and item, player, other, position and card say where (None where they do not apply).",
      PyExc_ValueError, nullptr);
  if (g_input_error == nullptr) throw py::error_already_set();
  m.add_object("InputError", py::reinterpret_borrow<py::object>(g_input_error));
}

void raise_input_error(const char* kind, const std::string& message, const Where& where) {
  py::object error = py::reinterpret_borrow<py::object>(g_input_error)(message);
  error.attr("kind") = kind;
  error.attr("item") = index_or_none(where.item);
  error.attr("player") = index_or_none(where.player);
  error.attr("other") = index_or_none(where.other);
  error.attr("position") = index_or_none(where.position);
  error.attr("card") = index_or_none(where.card);
  PyErr_SetObject(g_input_error, error.ptr());
  throw py::error_already_set();
}

const std::uint8_t* thirteen_codes(const py::bytes& cards, const char* what) {
  const std::string_view codes = cards;
  if (codes.size() != 13) {
    throw py::value_error(std::string(what) + " takes 13 cards, got " + std::to_string(codes.size()));
  }
  return reinterpret_cast<const std::uint8_t*>(codes.data());
}

void raise_card_issue(const CardIssue& issue, const char* item_label, bool by_player) {
  Where where;
  where.item = issue.item;
  where.card = issue.card;
  where.position = by_player ? issue.position % 13 : issue.position;
  std::string text;
  if (item_label[0] != '\0') text = std::string(item_label) + " " + std::to_string(issue.item) + ", ";
  if (by_player) {
    where.player = issue.position / 13;
    if (issue.kind == CardIssueKind::kDuplicate) where.other = issue.first_position / 13;
    text += "player " + std::to_string(where.player) + ", ";
  }
  text += "index " + std::to_string(where.position) + ": ";
  if (issue.kind == CardIssueKind::kOutOfRange) {
    if (is_joker(issue.card)) {
      // RULES.md 1.2: a joker the rules' pack does not hold.
      raise_input_error("card_out_of_range",
                        text + "card " + format_card(issue.card) + " (code " + std::to_string(issue.card) +
                            ") is a joker the pack does not hold (rules knob 'jokers')",
                        where);
    }
    raise_input_error("card_out_of_range", text + "card code " + std::to_string(issue.card) + " is not in 0..51",
                      where);
  }
  if (issue.second_position >= 0) {
    // A card of an added suit, held a third time (the pack holds it twice).
    std::string holders = "index " + std::to_string(issue.first_position) + ", index " +
                          std::to_string(issue.second_position) + " and index " + std::to_string(issue.position);
    if (by_player) {
      // Each holder once, with how many copies it holds: "player 0 (twice) and player 2".
      const int at[3] = {issue.first_position / 13, issue.second_position / 13, issue.position / 13};
      std::vector<std::string> names;
      for (int k = 0; k < 3; ++k) {
        if ((k > 0 && at[k] == at[0]) || (k > 1 && at[k] == at[1])) continue;
        const int copies = (at[0] == at[k]) + (at[1] == at[k]) + (at[2] == at[k]);
        names.push_back("player " + std::to_string(at[k]) +
                        (copies == 2 ? " (twice)" : copies == 3 ? " (three times)" : ""));
      }
      holders.clear();
      for (std::size_t k = 0; k < names.size(); ++k) {
        holders += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + names[k];
      }
    }
    raise_input_error("card_repeated",
                      text + "card " + format_card(issue.card) + " appears three times but the pack holds it twice: " +
                          "it is held by " + holders,
                      where);
  }
  if (by_player && where.other != where.player) {
    raise_input_error("card_repeated",
                      text + "card " + format_card(issue.card) + " appears twice: it is held by player " +
                          std::to_string(where.other) + " and player " + std::to_string(where.player),
                      where);
  }
  raise_input_error("card_repeated", text + "card " + format_card(issue.card) + " appears twice", where);
}

}  // namespace chinese_poker::bindings
