// The one card parser: card text and sequences of cards (strings or codes) into codes, with the errors
// that name the bad token and its position. chinese_poker.cards and evaluate() both use it.
#include <cstring>
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

// One card from a string or an integer code; `at` (" at position k" or "") is added to every message. An
// integer code is one of the 52 cards or, up to `codes` (52 + the pack's jokers), a joker.
std::uint8_t one_card(py::handle item, const std::string& at, int codes = kDeckSize + kMaxJokers) {
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
    if (overflow != 0 || code < 0 || code >= codes) {
      throw py::value_error("card code " + std::string(py::str(value)) + " is not in 0.." + std::to_string(codes - 1) + at);
    }
    return static_cast<std::uint8_t>(code);
  }
  throw py::type_error("a card is a string such as 'As' or 'X1' or an int 0..53, got " + type_name(item) + at);
}

}  // namespace

unsigned suit_bits(const py::object& text, const char* name) {
  if (!PyUnicode_Check(text.ptr())) {
    throw py::type_error(std::string(name) + " must be a str of suit letters such as 's' or 'sh', got " +
                         type_name(text));
  }
  const std::string letters = py::str(text);
  unsigned bits = 0;
  for (const char letter : letters) {
    const char* at = std::strchr("cdhs", letter);
    if (letter == '\0' || at == nullptr) {
      throw py::value_error(std::string(name) + ": " + quoted(text) + " is not a set of suit letters c, d, h, s");
    }
    const unsigned bit = 1u << (at - "cdhs");
    if ((bits & bit) != 0) throw py::value_error(std::string(name) + ": " + quoted(text) + " names a suit twice");
    bits |= bit;
  }
  if (letters.size() > 2) throw py::value_error(std::string(name) + ": at most two suits, got " + quoted(text));
  return bits;
}

std::string suit_letters(unsigned bits) {
  std::string text;
  for (int s = 0; s < kNumSuits; ++s) {
    if ((bits >> s & 1u) != 0) text += "cdhs"[s];
  }
  return text;
}

std::vector<std::uint8_t> parse_cards_object(py::handle cards, unsigned extra_suits, int jokers) {
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
      codes.push_back(one_card(item, " at position " + std::to_string(position), kDeckSize + jokers));
      ++position;
    }
  }
  int first_at[kDeckSize + kMaxJokers];
  int second_at[kDeckSize + kMaxJokers];
  for (int& at : first_at) at = -1;
  for (int& at : second_at) at = -1;
  for (std::size_t k = 0; k < codes.size(); ++k) {
    const int code = codes[k];
    if (code >= kDeckSize + jokers) {
      throw py::value_error("card " + format_card(code) + " (code " + std::to_string(code) + ") at position " +
                            std::to_string(k) +
                            " is a joker the pack does not hold (rules knob 'jokers' is " + std::to_string(jokers) +
                            ")");
    }
    int& first = first_at[code];
    if (first < 0) {
      first = static_cast<int>(k);
      continue;
    }
    if (code < kDeckSize && second_at[code] < 0 && copies_in_pack(code, extra_suits) == 2) {
      second_at[code] = static_cast<int>(k);
      continue;
    }
    if (second_at[code] >= 0) {
      throw py::value_error("card " + format_card(code) + " appears three times (positions " + std::to_string(first) +
                            ", " + std::to_string(second_at[code]) + " and " + std::to_string(k) +
                            "): the pack holds it twice");
    }
    throw py::value_error("card " + format_card(code) + " appears twice (positions " + std::to_string(first) +
                          " and " + std::to_string(k) + ")");
  }
  return codes;
}

void register_cards(py::module_& m) {
  m.def(
      "parse_card", [](const py::object& card) { return int{one_card(card, "")}; }, py::arg("card"),
      "Card code (0..53) of one card: a string such as 'As', '10h', 'T\u2665' or 'X1', or an int 0..53.");
  m.def(
      "parse_cards",
      [](const py::object& cards, const py::object& extra_suits, int jokers) {
        if (jokers < 0 || jokers > kMaxJokers) throw py::value_error("jokers must be 0, 1 or 2, got " + std::to_string(jokers));
        const std::vector<std::uint8_t> codes =
            parse_cards_object(cards, suit_bits(extra_suits, "extra_suits"), jokers);
        py::tuple out(codes.size());
        for (std::size_t k = 0; k < codes.size(); ++k) out[k] = int{codes[k]};
        return out;
      },
      py::arg("cards"), py::arg("extra_suits") = "", py::arg("jokers") = 0,
      "Card codes of a card text ('As Kd 10h', 'AsKd10h', commas, any case, suit symbols) or an iterable\n"
      "of card strings and codes; ValueError naming the bad token and its position, or a repeated card\n"
      "(a card of a suit in extra_suits may appear twice: the pack holds it twice). The jokers X1 and X2\n"
      "(codes 52, 53; 🃏 is the first one the text does not name) are cards when `jokers` holds them.");
  m.def("format_card", &format_card, py::arg("card"), "Canonical text of one card code, e.g. 'As'.");
  m.def(
      "card_copies",
      [](const py::object& extra_suits, int jokers) {
        if (jokers < 0 || jokers > kMaxJokers) throw py::value_error("jokers must be 0, 1 or 2, got " + std::to_string(jokers));
        const unsigned suits = suit_bits(extra_suits, "extra_suits");
        py::tuple out(kDeckSize + kMaxJokers);
        for (int code = 0; code < kDeckSize; ++code) out[static_cast<std::size_t>(code)] = copies_in_pack(code, suits);
        for (int joker = 0; joker < kMaxJokers; ++joker) {
          out[static_cast<std::size_t>(kDeckSize + joker)] = joker < jokers ? 1 : 0;
        }
        return out;
      },
      py::arg("extra_suits") = "", py::arg("jokers") = 0,
      "How many copies of each card code 0..53 the pack holds: 1, or 2 for a card of a suit in extra_suits;\n"
      "for the jokers X1 and X2 (52, 53), 1 when `jokers` holds it, else 0.");
}

}  // namespace chinese_poker::bindings
