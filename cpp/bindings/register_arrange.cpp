#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "chinese_poker/evaluate.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

const std::uint8_t* thirteen_distinct_cards(const py::array_t<std::uint8_t>& arr) {
  const CardIssue issue = check_cards(arr.data(), 13, 0);
  if (issue) {
    throw py::value_error("index " + std::to_string(issue.position) + ": card code " + std::to_string(issue.card) +
                          (issue.kind == CardIssueKind::kOutOfRange ? " is not in 0..51" : " appears twice"));
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
        std::copy(best.cards, best.cards + 13, out.mutable_data());
        return out;
      },
      py::arg("cards"), py::arg("rules"),
      "The legal setting with the strongest back, then middle, then front, as a (13,) uint8 array.");

  py::class_<ExpectedModel>(m, "ExpectedModel",
                            "Per-row value tables and pair terms of the expected-units strategy (opaque).")
      .def(py::init([](const py::sequence& rows, const std::string& wheel_name, double overall_unit,
                       double scoop_bonus, double scoop_multiplier, bool royalties_in_multiplier) {
             if (rows.size() != 3) throw py::value_error("ExpectedModel needs three rows (front, middle, back)");
             if (wheel_name != "low" && wheel_name != "second") {
               throw py::value_error("wheel must be 'low' or 'second', got '" + wheel_name + "'");
             }
             ExpectedModel model;
             model.wheel = wheel_name == "second" ? Wheel::Second : Wheel::Low;
             for (int r = 0; r < 3; ++r) {
               const auto row = py::cast<py::sequence>(rows[static_cast<std::size_t>(r)]);
               if (row.size() != 6) {
                 throw py::value_error("each row is (classes, win, loss, extra_win, extra_loss, always)");
               }
               RowModel& rm = model.row[r];
               rm.classes = py::cast<std::vector<Strength>>(row[0]);
               rm.win = py::cast<std::vector<double>>(row[1]);
               rm.loss = py::cast<std::vector<double>>(row[2]);
               rm.extra_win = py::cast<std::vector<double>>(row[3]);
               rm.extra_loss = py::cast<std::vector<double>>(row[4]);
               rm.always = py::cast<std::vector<double>>(row[5]);
               // The arranger indexes these vectors by class index: they must cover exactly the row's classes.
               if (rm.classes != row_classes(r, model.wheel)) {
                 throw py::value_error("ExpectedModel row " + std::to_string(r) +
                                       ": classes must be every strength of the row, ascending, under the wheel");
               }
               const std::size_t n = rm.classes.size();
               if (rm.win.size() != n || rm.loss.size() != n || rm.extra_win.size() != n || rm.extra_loss.size() != n ||
                   rm.always.size() != n) {
                 throw py::value_error("ExpectedModel row " + std::to_string(r) + ": arrays of different lengths");
               }
             }
             model.overall_unit = overall_unit;
             model.scoop_bonus = scoop_bonus;
             model.scoop_multiplier = scoop_multiplier;
             model.royalties_in_multiplier = royalties_in_multiplier;
             finish_model(model);
             return model;
           }),
           py::arg("rows"), py::arg("wheel"), py::arg("overall_unit"), py::arg("scoop_bonus"),
           py::arg("scoop_multiplier"), py::arg("royalties_in_multiplier"));

  m.def(
      "expected_units",
      [](const std::vector<Strength>& strengths, const ExpectedModel& model) {
        if (strengths.size() != 3) throw py::value_error("expected_units takes three row strengths");
        return expected_units(strengths.data(), model);
      },
      py::arg("strengths"), py::arg("model"), "Expected units per opponent of a setting's row strengths.");

  m.def(
      "arrange_batch",
      [](const py::object& cards, const RulesSpec& rules, const ExpectedModel* model) {
        auto arr = require_card_array(cards, "hands", 2, {13});
        if (model != nullptr && model->wheel != rules.wheel) {
          throw py::value_error("the expected model was built for another wheel rule than these rules");
        }
        const auto count = static_cast<std::size_t>(arr.shape(0));
        py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(count), py::ssize_t{13}});
        py::array_t<double> ev(static_cast<py::ssize_t>(count));
        const std::uint8_t* in = arr.data();
        std::uint8_t* dst = out.mutable_data();
        double* ev_dst = ev.mutable_data();
        std::int64_t bad;
        {
          py::gil_scoped_release release;
          bad = arrange_batch(in, count, rules, model, dst, ev_dst);
        }
        if (bad >= 0) {
          const CardIssue issue = check_cards(in + 13 * bad, 13, bad);
          throw py::value_error("hand " + std::to_string(bad) + ", index " + std::to_string(issue.position) +
                                ": card code " + std::to_string(issue.card) +
                                (issue.kind == CardIssueKind::kOutOfRange ? " is not in 0..51" : " appears twice"));
        }
        return py::make_tuple(out, ev);
      },
      py::arg("hands"), py::arg("rules"), py::arg("model").none(true),
      "Arranges N hands ((N, 13) uint8) by the expected model, or by strength when model is None; returns\n"
      "((N, 13) uint8 settings, (N,) float64 expected units per opponent). Releases the GIL.");
}

}  // namespace chinese_poker::bindings
