// Arranging: the expected-units model, one hand per call (everything Python needs in one result), every
// legal setting, and batches of hands (numpy arrays, the GIL released).
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "chinese_poker/evaluate.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

void check_model(const ExpectedModel& model, const RulesSpec& rules) {
  if (model.wheel != rules.wheel) {
    throw py::value_error("the expected model was built for another wheel rule than these rules");
  }
}

template <class T>
std::vector<T> vector_of(const py::handle& obj, const char* what) {
  const auto arr = py::cast<py::array_t<T, py::array::c_style | py::array::forcecast>>(obj);
  if (arr.ndim() != 1) throw py::value_error(std::string(what) + " must be one-dimensional");
  return std::vector<T>(arr.data(), arr.data() + arr.size());
}

py::tuple strengths_of(const Strength (&s)[3]) { return py::make_tuple(s[0], s[1], s[2]); }

}  // namespace

void register_arrange(py::module_& m) {
  py::class_<ExpectedModel, std::shared_ptr<ExpectedModel>>(
      m, "ExpectedModel", "Per-row value tables and pair terms of the expected-units strategy (read-only).")
      .def(py::init([](const py::sequence& strengths, const py::sequence& prob, const RulesSpec& rules,
                       const py::object& sample, int top) {
             check_rules(rules);
             if (strengths.size() != 3 || prob.size() != 3) {
               throw py::value_error("field tables have three rows (front, middle, back)");
             }
             FieldTables tables;
             for (std::size_t r = 0; r < 3; ++r) {
               tables.strengths[r] = vector_of<Strength>(strengths[r], "strengths");
               tables.prob[r] = vector_of<double>(prob[r], "prob");
             }
             auto model = std::make_shared<ExpectedModel>();
             if (const char* problem = build_expected_model(tables, rules, model.get())) {
               throw py::value_error(std::string("field tables: ") + problem);
             }
             if (!sample.is_none()) {
               const auto rows = py::cast<py::sequence>(sample);
               if (rows.size() != 3) throw py::value_error("sample: three rows (front, middle, back)");
               std::vector<Strength> sampled[3];
               for (std::size_t r = 0; r < 3; ++r) sampled[r] = vector_of<Strength>(rows[r], "sample rows");
               if (const char* problem = set_field_sample(*model, sampled, top)) throw py::value_error(problem);
             } else if (top != 0) {
               throw py::value_error("top: a second stage needs a sample");
             }
             return model;
           }),
           py::arg("strengths"), py::arg("prob"), py::arg("rules"), py::arg("sample") = py::none(),
           py::arg("top") = 0,
           "The model of `rules` against the field: per row (front, middle, back) every strength under the\n"
           "wheel='low' encoding and its probability. With `sample` (three equal-length sequences: the\n"
           "front, middle and back strengths, wheel='low' encoding, of settings the field played) and `top`\n"
           "(2 to 8), the second stage re-scores the model's `top` best distinct settings against them.")
      .def_property_readonly("top", [](const ExpectedModel& model) { return model.top; },
                             "How many settings the second stage re-scores (0: no second stage).")
      .def_property_readonly("sample_size", [](const ExpectedModel& model) { return model.sample.size(); },
                             "How many field settings the second stage scores against.")
      .def_property_readonly("wheel", [](const ExpectedModel& model) { return model.wheel == Wheel::Second ? "second" : "low"; })
      // Pickled as its tables and pair terms (the derived bounds are rebuilt), so a model can go to a
      // worker process; an unpickled state is checked as a built model is.
      .def(py::pickle(
          [](const ExpectedModel& model) {
            py::list rows;
            for (const RowModel& r : model.row) {
              rows.append(py::make_tuple(r.classes, r.win, r.loss, r.extra_win, r.extra_loss, r.always));
            }
            const FieldSample& sample = model.sample;
            return py::make_tuple(static_cast<int>(model.wheel), rows, model.overall_unit, model.scoop_bonus,
                                  model.scoop_multiplier, model.royalties_in_multiplier,
                                  py::make_tuple(sample.row_class[0], sample.row_class[1], sample.row_class[2]),
                                  model.top);
          },
          [](const py::tuple& state) {
            if (state.size() != 8) throw py::value_error("ExpectedModel state: not an 8-tuple");
            auto model = std::make_shared<ExpectedModel>();
            const int wheel = state[0].cast<int>();
            if (wheel != static_cast<int>(Wheel::Low) && wheel != static_cast<int>(Wheel::Second)) {
              throw py::value_error("ExpectedModel state: unknown wheel");
            }
            model->wheel = static_cast<Wheel>(wheel);
            const auto rows = state[1].cast<py::list>();
            if (rows.size() != 3) throw py::value_error("ExpectedModel state: not three rows");
            for (std::size_t k = 0; k < 3; ++k) {
              const auto row = rows[k].cast<py::tuple>();
              if (row.size() != 6) throw py::value_error("ExpectedModel state: a row is not a 6-tuple");
              RowModel& r = model->row[k];
              r.classes = row[0].cast<std::vector<Strength>>();
              r.win = row[1].cast<std::vector<double>>();
              r.loss = row[2].cast<std::vector<double>>();
              r.extra_win = row[3].cast<std::vector<double>>();
              r.extra_loss = row[4].cast<std::vector<double>>();
              r.always = row[5].cast<std::vector<double>>();
            }
            model->overall_unit = state[2].cast<double>();
            model->scoop_bonus = state[3].cast<double>();
            model->scoop_multiplier = state[4].cast<double>();
            model->royalties_in_multiplier = state[5].cast<bool>();
            const auto sample = state[6].cast<py::tuple>();
            if (sample.size() != 3) throw py::value_error("ExpectedModel state: the sample is not three rows");
            for (std::size_t k = 0; k < 3; ++k) {
              model->sample.row_class[k] = sample[k].cast<std::vector<std::int16_t>>();
            }
            model->top = state[7].cast<int>();
            // finish_model leaves rows of unequal lengths without bounds; validate_model reports them.
            finish_model(*model);
            if (const char* problem = validate_model(*model)) {
              throw py::value_error(std::string("ExpectedModel state: ") + problem);
            }
            return model;
          }));

  py::class_<ArrangeResult>(m, "ArrangeResult", "One arranged hand (read-only).")
      .def_property_readonly("cards",
                             [](const ArrangeResult& r) {
                               py::tuple out(13);
                               for (std::size_t k = 0; k < 13; ++k) out[k] = int{r.cards[k]};
                               return out;
                             })
      .def_property_readonly("strengths", [](const ArrangeResult& r) { return strengths_of(r.strength); })
      .def_readonly("expected_units", &ArrangeResult::expected_units)
      .def_readonly("natural_index", &ArrangeResult::natural,
                    "The highest listed natural held, as an index into the rules' naturals, or -1.");

  m.def(
      "arrange_hand",
      [](const py::bytes& cards, const RulesSpec& rules, const ExpectedModel& model, bool by_expected) {
        check_rules(rules);
        check_model(model, rules);
        ArrangeResult out{};
        const CardIssue issue = arrange_hand(thirteen_codes(cards, "arranging"), rules, model, by_expected, &out);
        if (issue) raise_card_issue(issue, "", false);
        return out;
      },
      py::arg("cards"), py::arg("rules"), py::arg("model"), py::arg("by_expected"),
      "Arranges 13 cards (bytes of codes) by the model or as the strongest setting; the setting, its row\n"
      "strengths, its expected units per opponent under the model, and the listed natural held.");

  m.def(
      "expected_units",
      [](const std::vector<Strength>& strengths, const ExpectedModel& model) {
        if (strengths.size() != 3) throw py::value_error("expected_units takes three row strengths");
        double value = 0;
        if (!expected_units(strengths.data(), model, &value)) {
          throw py::value_error("expected_units: a strength is not one of its row's hand classes");
        }
        return value;
      },
      py::arg("strengths"), py::arg("model"), "Expected units per opponent of a setting's row strengths.");

  m.def(
      "expected_rows",
      [](const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& strengths,
         const ExpectedModel& model) {
        if (strengths.ndim() != 2 || strengths.shape(1) != 3) {
          throw py::value_error("expected_rows: strengths must have shape (K, 3), got " + shape_of(strengths));
        }
        const py::ssize_t n = strengths.shape(0);
        py::array_t<double> ev(n);
        py::array_t<double> win({n, py::ssize_t{3}});
        py::array_t<double> loss({n, py::ssize_t{3}});
        const auto s = strengths.unchecked<2>();
        auto e = ev.mutable_unchecked<1>();
        auto w = win.mutable_unchecked<2>();
        auto l = loss.mutable_unchecked<2>();
        for (py::ssize_t k = 0; k < n; ++k) {
          Strength row_strengths[3];
          for (py::ssize_t r = 0; r < 3; ++r) {
            const std::int32_t value = s(k, r);
            const RowModel& row = model.row[r];
            auto it = value < 0 ? row.classes.end()
                                : std::lower_bound(row.classes.begin(), row.classes.end(), static_cast<Strength>(value));
            if (it == row.classes.end() || *it != static_cast<Strength>(value)) {
              // A strength only a pack with added suits or jokers holds (a five of a kind, a flush with a
              // repeated card) is valued at the strongest class below it, as arrange values it.
              const bool pack_only = value >= 0 && it != row.classes.begin() &&
                                     is_row_strength(static_cast<Strength>(value), r == 0 ? 3 : 5, model.wheel);
              if (!pack_only) {
                throw py::value_error("expected_rows: setting " + std::to_string(k) + ", row " + std::to_string(r) +
                                      ": " + std::to_string(value) + " is not the strength of any row " +
                                      (r == 0 ? "of 3 cards" : "of 5 cards") + " under the model's wheel");
              }
              --it;
            }
            const auto i = static_cast<std::size_t>(it - row.classes.begin());
            row_strengths[r] = static_cast<Strength>(value);
            w(k, r) = row.win[i];
            l(k, r) = row.loss[i];
          }
          // The arranger's own expectation, so that values compare exactly with arrange's.
          double value = 0;
          if (!expected_units_in_pack(row_strengths, model, &value)) {
            throw py::value_error("expected_rows: setting " + std::to_string(k) + " has no value in the model");
          }
          e(k) = value;
        }
        return py::make_tuple(ev, win, loss);
      },
      py::arg("strengths"), py::arg("model"),
      "For K settings' row strengths ((K, 3) int32): their expected units per opponent (as arrange computes\n"
      "them) and each row's chance to win and to lose against the field's row; ((K,), (K, 3), (K, 3)) float64.");

  m.def(
      "legal_arrangements",
      [](const py::bytes& cards, const RulesSpec& rules, bool distinct_strengths, bool drop_dominated) {
        check_rules(rules);
        const std::uint8_t* codes = thirteen_codes(cards, "arranging");
        // Not value-initialised: only the settings written are read, and most calls write a few hundred of
        // the 72,072 places (zeroing them all would cost more than finding the undominated ones).
        const std::unique_ptr<Arrangement[]> buffer(new Arrangement[kNumSplits]);
        std::size_t n = 0;
        CardIssue issue;
        {
          py::gil_scoped_release release;
          issue = legal_arrangements(codes, rules, distinct_strengths, drop_dominated, buffer.get(), &n);
        }
        if (issue) raise_card_issue(issue, "", false);
        py::array_t<std::uint8_t> settings({static_cast<py::ssize_t>(n), py::ssize_t{13}});
        py::array_t<std::int32_t> strengths({static_cast<py::ssize_t>(n), py::ssize_t{3}});
        auto s = settings.mutable_unchecked<2>();
        auto t = strengths.mutable_unchecked<2>();
        for (std::size_t k = 0; k < n; ++k) {
          const auto row = static_cast<py::ssize_t>(k);
          for (py::ssize_t j = 0; j < 13; ++j) s(row, j) = buffer[k].cards[j];
          for (py::ssize_t j = 0; j < 3; ++j) t(row, j) = static_cast<std::int32_t>(buffer[k].strength[j]);
        }
        return py::make_tuple(settings, strengths);
      },
      py::arg("cards"), py::arg("rules"), py::arg("distinct_strengths"), py::arg("drop_dominated"),
      "Every legal setting of 13 cards: ((K, 13) uint8 settings, (K, 3) int32 row strengths).");

  m.def(
      "arrange_batch",
      [](const py::object& cards, const RulesSpec& rules, const ExpectedModel* model, const py::object& threads) {
        check_rules(rules);
        auto arr = require_card_array(cards, "hands", 2, {13});
        const Parallel parallel = parallel_from(threads);
        if (model != nullptr) check_model(*model, rules);
        const auto count = static_cast<std::size_t>(arr.shape(0));
        py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(count), py::ssize_t{13}});
        py::array_t<double> ev(static_cast<py::ssize_t>(count));
        const std::uint8_t* in = arr.data();
        std::uint8_t* dst = out.mutable_data();
        double* ev_dst = ev.mutable_data();
        CardIssue issue;
        {
          py::gil_scoped_release release;
          issue = arrange_batch(in, count, rules, model, dst, ev_dst, parallel);
        }
        if (issue) raise_card_issue(issue, "hand", false);
        return py::make_tuple(out, ev);
      },
      py::arg("hands"), py::arg("rules"), py::arg("model").none(true), py::arg("threads") = 1,
      "Arranges N hands ((N, 13) uint8) by the expected model, or by strength when model is None; returns\n"
      "((N, 13) uint8 settings, (N,) float64 expected units per opponent). Releases the GIL; the hands are\n"
      "spread over `threads` threads (0: every core), an error names the lowest bad hand.");
}

}  // namespace chinese_poker::bindings
