#include <string>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "chinese_poker/evaluate.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

const std::uint8_t* thirteen_distinct_cards(const py::array_t<std::uint8_t>& arr) {
  const RowIssue issue = check_cards(arr.data(), 13, 0);
  if (issue.kind != RowIssue::kNone) {
    throw py::value_error("index " + std::to_string(issue.position) + ": card code " + std::to_string(issue.card) +
                          (issue.kind == RowIssue::kOutOfRange ? " is not in 0..51" : " appears twice"));
  }
  return arr.data();
}

}  // namespace

void register_arrange(py::module_& m) {
  m.def(
      "legal_arrangements",
      [](const py::object& cards, const RulesSpec& rules, bool distinct_strengths, bool drop_dominated) {
        auto arr = require_card_array(cards, "cards", 1, {13});
        const std::uint8_t* c = thirteen_distinct_cards(arr);
        std::vector<Arrangement> buffer(kNumSplits);
        std::size_t n;
        {
          py::gil_scoped_release release;
          n = legal_arrangements(c, rules, distinct_strengths, drop_dominated, buffer.data());
        }
        py::array_t<std::uint8_t> settings({static_cast<py::ssize_t>(n), py::ssize_t{13}});
        py::array_t<std::int32_t> strengths({static_cast<py::ssize_t>(n), py::ssize_t{3}});
        auto s = settings.mutable_unchecked<2>();
        auto t = strengths.mutable_unchecked<2>();
        for (std::size_t k = 0; k < n; ++k) {
          for (int j = 0; j < 13; ++j) s(k, j) = buffer[k].cards[j];
          for (int j = 0; j < 3; ++j) t(k, j) = static_cast<std::int32_t>(buffer[k].strength[j]);
        }
        return py::make_tuple(settings, strengths);
      },
      py::arg("cards"), py::arg("rules"), py::arg("distinct_strengths"), py::arg("drop_dominated"),
      "Every legal setting of 13 cards: ((K, 13) uint8 settings, (K, 3) int32 row strengths).");

  m.def(
      "strongest_arrangement",
      [](const py::object& cards, const RulesSpec& rules) {
        auto arr = require_card_array(cards, "cards", 1, {13});
        const std::uint8_t* c = thirteen_distinct_cards(arr);
        Arrangement best{};
        {
          py::gil_scoped_release release;
          strongest_arrangement(c, rules, &best);
        }
        py::array_t<std::uint8_t> out(13);
        for (int j = 0; j < 13; ++j) out.mutable_at(j) = best.cards[j];
        return out;
      },
      py::arg("cards"), py::arg("rules"),
      "The legal setting with the strongest back, then middle, then front, as a (13,) uint8 array.");
}

}  // namespace chinese_poker::bindings
