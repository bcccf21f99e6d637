// Open-face play: the exact fantasyland solver (cpp/include/chinese_poker/fantasyland.hpp). chinese_poker.ofc
// parses cards and picks the stay value; the checks here keep the kernel within its input's bounds.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "chinese_poker/fantasyland.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

void check_stay_value(double stay_value, const char* function) {
  if (!std::isfinite(stay_value) || stay_value < 0.0 || stay_value > kMaxStayValue) {
    throw py::value_error(std::string(function) + ": stay_value must be a finite number in 0..1e6, got " +
                          std::to_string(stay_value));
  }
}

void check_count(py::ssize_t count, const char* function) {
  if (count < kMinFantasylandCards || count > kMaxFantasylandCards) {
    throw py::value_error(std::string(function) + ": a fantasyland hand holds 14 to 17 cards, got " +
                          std::to_string(count));
  }
}

py::tuple setting_tuple(const FantasylandSetting& s) {
  return py::make_tuple(
      py::bytes(reinterpret_cast<const char*>(s.rows), 13),
      py::bytes(reinterpret_cast<const char*>(s.discards), static_cast<std::size_t>(s.num_discards)),
      py::make_tuple(s.strength[0], s.strength[1], s.strength[2]),
      py::make_tuple(s.royalty[0], s.royalty[1], s.royalty[2]), s.stays, s.value);
}

}  // namespace

void register_ofc(py::module_& m) {
  m.def(
      "fantasyland_solve",
      [](const py::bytes& cards, const RulesSpec& rules, double stay_value) {
        check_rules(rules);
        check_stay_value(stay_value, "fantasyland");
        const std::string text = cards;
        check_count(static_cast<py::ssize_t>(text.size()), "fantasyland");
        const auto* codes = reinterpret_cast<const std::uint8_t*>(text.data());
        const int count = static_cast<int>(text.size());
        const CardIssue issue = check_cards_in_pack(codes, count, 0, pack_of(rules));
        if (issue) raise_card_issue(issue, "", false);
        auto scratch = std::make_unique<FantasylandScratch>();
        FantasylandSetting setting;
        {
          py::gil_scoped_release release;
          setting = solve_fantasyland(codes, count, rules, stay_value, *scratch);
        }
        return setting_tuple(setting);
      },
      py::arg("cards"), py::arg("rules"), py::arg("stay_value"),
      "The exact fantasyland setting of 14 to 17 card codes (bytes): (rows: 13 bytes front, middle, back;\n"
      "discards: bytes; strengths; royalties; stays; value). Releases the GIL.");
  m.def(
      "fantasyland_batch",
      [](const py::object& hands, const RulesSpec& rules, double stay_value, const py::object& threads) {
        check_rules(rules);
        check_stay_value(stay_value, "fantasyland_batch");
        auto arr = require_card_array(hands, "hands", 2, {14, 15, 16, 17});
        const Parallel parallel = parallel_from(threads);
        const auto count = static_cast<std::size_t>(arr.shape(0));
        const py::ssize_t width = arr.shape(1);
        const auto n = static_cast<py::ssize_t>(count);
        std::vector<FantasylandSetting> settings(count);
        CardIssue issue;
        {
          py::gil_scoped_release release;
          issue = solve_fantasyland_batch(arr.data(), count, static_cast<int>(width), rules, stay_value,
                                          settings.data(), parallel);
        }
        if (issue) raise_card_issue(issue, "hand", false);
        py::array_t<std::uint8_t> rows({n, py::ssize_t{13}});
        py::array_t<std::uint8_t> discards({n, width - 13});
        py::array_t<std::int32_t> strengths({n, py::ssize_t{3}});
        py::array_t<std::int64_t> royalties({n, py::ssize_t{3}});
        py::array_t<std::uint8_t> stays(n);
        py::array_t<double> value(n);
        auto r = rows.mutable_unchecked<2>();
        auto d = discards.mutable_unchecked<2>();
        auto s = strengths.mutable_unchecked<2>();
        auto y = royalties.mutable_unchecked<2>();
        auto st = stays.mutable_unchecked<1>();
        auto v = value.mutable_unchecked<1>();
        for (py::ssize_t h = 0; h < n; ++h) {
          const FantasylandSetting& f = settings[static_cast<std::size_t>(h)];
          for (py::ssize_t k = 0; k < 13; ++k) r(h, k) = f.rows[k];
          for (py::ssize_t k = 0; k < width - 13; ++k) d(h, k) = f.discards[k];
          for (py::ssize_t k = 0; k < 3; ++k) {
            s(h, k) = static_cast<std::int32_t>(f.strength[k]);
            y(h, k) = f.royalty[k];
          }
          st(h) = f.stays ? 1 : 0;
          v(h) = f.value;
        }
        return py::make_tuple(rows, discards, strengths, royalties, stays, value);
      },
      py::arg("hands"), py::arg("rules"), py::arg("stay_value"), py::arg("threads") = 1,
      "fantasyland_solve for N hands ((N, K) uint8, K 14..17): ((N, 13) uint8 rows, (N, K-13) uint8 discards,\n"
      "(N, 3) int32 strengths, (N, 3) int64 royalties, (N,) uint8 stays (0 or 1), (N,) float64 values). Releases the GIL;\n"
      "the hands are spread over `threads` threads (0: every core), an error names the lowest bad hand.");
}

}  // namespace chinese_poker::bindings
