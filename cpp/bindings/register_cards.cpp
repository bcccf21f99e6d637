// The one card parser: card text and sequences of cards (strings or codes) into codes, with the errors
// that name the bad token and its position. chinese_poker.cards and evaluate() both use it.
#include <string>
#include <vector>

#include "chinese_poker/card_text.hpp"
#include "chinese_poker/cards.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

std::string type_name(py::handle obj) { return py::str(py::type::handle_of(obj).attr("__name__")); }

std::string quoted(py::handle obj) { return py::str(py::repr(obj)); }

// The UTF-8 bytes of a str, lone surrogates kept (as "surrogatepass" writes them) so that any str can be
// parsed: such bytes are never card text, so they end up named in an error like any other bad token.
py::bytes utf8_of(py::handle text) {
  PyObject* encoded = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass");
  if (encoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(encoded);
}

// A slice of such bytes as a str again.
py::str str_of(std::string_view utf8) {
  PyObject* decoded = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "surrogatepass");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

// One card from a string or an integer code; `at` (" at position k" or "") is added to every message.
std::uint8_t one_card(py::handle item, const std::string& at) {
  if (PyUnicode_Check(item.ptr())) {
    const py::bytes utf8 = utf8_of(item);
    const int card = parse_card_token(std::string_view(utf8));
    if (card < 0) throw py::value_error("unknown card " + quoted(item) + at);
    return static_cast<std::uint8_t>(card);
  }
  if (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr())) {
    const py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(item.ptr()));
    if (!value) throw py::error_already_set();
    int overflow = 0;
    const long long code = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0 || code < 0 || code >= kDeckSize) {
      throw py::value_error("card code " + std::string(py::str(value)) + " is not in 0..51" + at);
    }
    return static_cast<std::uint8_t>(code);
  }
  throw py::type_error("a card is a string such as 'As' or an int 0..51, got " + type_name(item) + at);
}

}  // namespace

std::vector<std::uint8_t> parse_cards_object(py::handle cards) {
  std::vector<std::uint8_t> codes;
  if (PyUnicode_Check(cards.ptr())) {
    const py::bytes utf8 = utf8_of(cards);
    const std::string_view text = utf8;
    codes.resize(text.size() / 2 + 1);
    std::size_t count = 0;
    const CardTextIssue issue = parse_card_text(text, codes.data(), codes.size(), &count);
    if (!issue.ok) {
      const py::str bad = str_of(text.substr(issue.begin, issue.end - issue.begin));
      throw py::value_error("unknown card " + quoted(bad) + " at position " + std::to_string(issue.card_index) +
                            " in " + quoted(cards));
    }
    codes.resize(count);
  } else {
    if (PyBytes_Check(cards.ptr()) || PyByteArray_Check(cards.ptr()) || !py::isinstance<py::iterable>(cards)) {
      throw py::type_error("cards must be a string or an iterable of cards, got " + type_name(cards));
    }
    std::size_t position = 0;
    for (const py::handle item : py::reinterpret_borrow<py::iterable>(cards)) {
      codes.push_back(one_card(item, " at position " + std::to_string(position)));
      ++position;
    }
  }
  int first_at[kDeckSize];
  for (int& at : first_at) at = -1;
  for (std::size_t k = 0; k < codes.size(); ++k) {
    int& first = first_at[codes[k]];
    if (first >= 0) {
      throw py::value_error("card " + format_card(codes[k]) + " appears twice (positions " + std::to_string(first) +
                            " and " + std::to_string(k) + ")");
    }
    first = static_cast<int>(k);
  }
  return codes;
}

void register_cards(py::module_& m) {
  m.def(
      "parse_card", [](const py::object& card) { return int{one_card(card, "")}; }, py::arg("card"),
      "Card code (0..51) of one card: a string such as 'As', '10h' or 'T\u2665', or an int 0..51.");
  m.def(
      "parse_cards",
      [](const py::object& cards) {
        const std::vector<std::uint8_t> codes = parse_cards_object(cards);
        py::tuple out(codes.size());
        for (std::size_t k = 0; k < codes.size(); ++k) out[k] = int{codes[k]};
        return out;
      },
      py::arg("cards"),
      "Card codes of a card text ('As Kd 10h', 'AsKd10h', commas, any case, suit symbols) or an iterable\n"
      "of card strings and codes; ValueError naming the bad token and its position, or a repeated card.");
  m.def("format_card", &format_card, py::arg("card"), "Canonical text of one card code, e.g. 'As'.");
}

}  // namespace chinese_poker::bindings
