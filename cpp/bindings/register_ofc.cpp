// Open-face play: the exact fantasyland solver (cpp/include/chinese_poker/fantasyland.hpp). chinese_poker.ofc
// parses cards and picks the stay value; the checks here keep the kernel within its input's bounds.
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "chinese_poker/fantasyland.hpp"
#include "chinese_poker/ofc_advise.hpp"
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

// A board from three row byte strings (front, middle, back); ValueError for a row over its width.
OfcBoard board_of(const py::sequence& rows, const char* what) {
  if (py::len(rows) != 3) throw py::value_error(std::string(what) + ": a board is three rows");
  OfcBoard board;
  static constexpr int kWidth[3] = {3, 5, 5};
  for (int r = 0; r < 3; ++r) {
    const std::string row = rows[static_cast<std::size_t>(r)].cast<py::bytes>();
    if (static_cast<int>(row.size()) > kWidth[r]) {
      throw py::value_error(std::string(what) + ": row " + std::to_string(r) + " holds more than " +
                            std::to_string(kWidth[r]) + " cards");
    }
    board.len[r] = static_cast<int>(row.size());
    for (int k = 0; k < board.len[r]; ++k) board.rows[r][k] = static_cast<std::uint8_t>(row[static_cast<std::size_t>(k)]);
  }
  return board;
}

// Fantasyland values by card count: 18 entries (only 14..17 are read), each finite in 0..kMaxStayValue.
void fill_fl_values(const std::vector<double>& values, double* out) {
  if (values.size() != 18) throw py::value_error("fl_value: give 18 values (index = cards dealt)");
  for (std::size_t k = 0; k < 18; ++k) {
    check_stay_value(values[k], "fl_value");
    out[k] = values[k];
  }
}

// A placement fits the board: at most kOfcMaxHeld cards, rows 0..2, each row within its width.
OfcPlacement placement_of(const py::sequence& moves, const OfcBoard& board) {
  OfcPlacement p;
  if (py::len(moves) > kOfcMaxHeld) throw py::value_error("a placement holds at most 5 cards");
  int len[3] = {board.len[0], board.len[1], board.len[2]};
  static constexpr int kWidth[3] = {3, 5, 5};
  for (const auto& item : moves) {
    const auto pair = item.cast<std::pair<int, int>>();
    if (pair.second < 0 || pair.second > 2) throw py::value_error("a placement's row is 0..2");
    if (pair.first < 0 || pair.first > 255) throw py::value_error("a card code is 0..255");
    if (++len[pair.second] > kWidth[pair.second]) throw py::value_error("a placement overfills a row");
    p.cards[p.count] = static_cast<std::uint8_t>(pair.first);
    p.rows[p.count++] = static_cast<std::uint8_t>(pair.second);
  }
  return p;
}

void check_pack(const std::vector<std::uint8_t>& codes, const RulesSpec& rules) {
  if (rules.extra_suits != 0) throw py::value_error("open-face advice takes a pack without added suits");
  if (codes.size() > 6 * 13) throw py::value_error("more cards than the pack holds");
  const CardIssue issue = check_cards_in_pack(codes.data(), static_cast<int>(codes.size()), 0, pack_of(rules));
  if (issue) raise_card_issue(issue, "", false);
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
  m.def(
      "ofc_greedy",
      [](const RulesSpec& rules, const py::sequence& board_rows, const py::bytes& cards, int keep,
         const std::vector<double>& fl_value) -> py::tuple {
        check_rules(rules);
        const OfcBoard board = board_of(board_rows, "board");
        const std::string held = cards;
        const int n = static_cast<int>(held.size());
        const int room = 13 - board.cards();
        if (n < 1 || n > kOfcMaxHeld || keep < 1 || keep > n || n - keep > 1 || keep > room) {
          throw py::value_error("ofc_greedy: hold 1 to 5 cards, keep all or all but one, within the board's room");
        }
        double fl[18];
        fill_fl_values(fl_value, fl);
        std::vector<std::uint8_t> codes(held.begin(), held.end());
        for (int r = 0; r < 3; ++r) codes.insert(codes.end(), board.rows[r], board.rows[r] + board.len[r]);
        check_pack(codes, rules);
        std::uint8_t thrown[kOfcMaxHeld] = {};
        OfcPlacement p;
        {
          py::gil_scoped_release release;
          p = ofc_greedy(board, codes.data(), n, keep, rules, fl, thrown);
        }
        py::list moves;
        for (int k = 0; k < p.count; ++k) moves.append(py::make_tuple(int{p.cards[k]}, int{p.rows[k]}));
        return py::make_tuple(py::tuple(moves), py::bytes(reinterpret_cast<const char*>(thrown),
                                                          static_cast<std::size_t>(n - keep)));
      },
      py::arg("rules"), py::arg("board"), py::arg("cards"), py::arg("keep"), py::arg("fl_value"),
      "The greedy baseline's placement of `cards` (bytes) on `board` (three row bytes): ((card, row), ...),\n"
      "discards (bytes).");
  m.def(
      "ofc_advise",
      [](const RulesSpec& rules, int seat, const py::sequence& boards, const std::vector<bool>& in_fantasyland,
         const std::vector<bool>& acted, const std::vector<int>& streets, const py::bytes& unseen,
         const std::vector<double>& fl_value, const py::sequence& options, long samples, std::uint64_t seed,
         const std::vector<bool>& pooled, const py::bytes& pool_cards, const py::bytes& pool_boards) {
        check_rules(rules);
        OfcSituation s;
        s.players = static_cast<int>(py::len(boards));
        if (s.players < 2 || s.players > kOfcMaxPlayers) throw py::value_error("ofc_advise: 2 or 3 boards");
        if (seat < 0 || seat >= s.players) throw py::value_error("ofc_advise: seat out of range");
        if (in_fantasyland.size() != static_cast<std::size_t>(s.players) ||
            acted.size() != static_cast<std::size_t>(s.players)) {
          throw py::value_error("ofc_advise: one fantasyland and one acted flag per board");
        }
        if (streets.size() != 4 || streets[1] < 1 || streets[0] - streets[1] < 0 || streets[0] - streets[1] > 1 ||
            streets[0] > kOfcMaxHeld || streets[3] < 1 || streets[2] - streets[3] < 0 || streets[2] - streets[3] > 1 ||
            streets[2] > 3) {
          throw py::value_error("ofc_advise: streets (street cards, kept, later cards, kept) out of range");
        }
        if (samples < 1 || samples > 10'000'000) throw py::value_error("ofc_advise: samples must be 1..10,000,000");
        s.seat = seat;
        s.street_cards = streets[0], s.street_keep = streets[1];
        s.later_cards = streets[2], s.later_keep = streets[3];
        std::vector<std::uint8_t> codes;
        for (int p = 0; p < s.players; ++p) {
          s.boards[p] = board_of(boards[static_cast<std::size_t>(p)].cast<py::sequence>(), "boards");
          s.in_fantasyland[p] = in_fantasyland[static_cast<std::size_t>(p)];
          s.acted[p] = acted[static_cast<std::size_t>(p)] || s.boards[p].cards() == 13;
          for (int r = 0; r < 3; ++r) {
            codes.insert(codes.end(), s.boards[p].rows[r], s.boards[p].rows[r] + s.boards[p].len[r]);
          }
          if (!pooled.empty()) {
            if (pooled.size() != static_cast<std::size_t>(s.players)) throw py::value_error("ofc_advise: one pooled flag per board");
            s.pooled[p] = pooled[static_cast<std::size_t>(p)];
          }
          if (s.pooled[p] && (p == seat || !s.in_fantasyland[p] || s.boards[p].cards() != 0)) {
            throw py::value_error("ofc_advise: a pooled seat is another seat in fantasyland with an empty board");
          }
          if (p != seat && s.in_fantasyland[p] && !s.pooled[p] && s.boards[p].cards() != 13) {
            throw py::value_error("ofc_advise: a seat in fantasyland must have set its board or be pooled");
          }
        }
        fill_fl_values(fl_value, s.fl_value);
        std::vector<OfcPlacement> placements;
        for (const auto& option : options) {
          placements.push_back(placement_of(option.cast<py::sequence>(), s.boards[seat]));
          if (placements.back().count != placements.front().count) {
            throw py::value_error("ofc_advise: every option places as many cards");
          }
        }
        if (placements.empty()) throw py::value_error("ofc_advise: no options");
        std::vector<std::uint8_t> held;
        for (const auto& p : placements) held.insert(held.end(), p.cards, p.cards + p.count);
        std::sort(held.begin(), held.end());
        held.erase(std::unique(held.begin(), held.end()), held.end());
        if (held.size() > static_cast<std::size_t>(kOfcMaxHeld)) throw py::value_error("ofc_advise: options place more than 5 distinct cards");
        const std::string rest = unseen;
        std::vector<std::uint8_t> all = codes;
        all.insert(all.end(), held.begin(), held.end());
        all.insert(all.end(), rest.begin(), rest.end());
        check_pack(all, rules);
        s.unseen = reinterpret_cast<const std::uint8_t*>(rest.data());
        s.num_unseen = static_cast<int>(rest.size());
        const std::string pool_in = pool_cards, boards_in = pool_boards;
        int num_pooled = 0;
        for (int p = 0; p < s.players; ++p) num_pooled += s.pooled[p] ? 1 : 0;
        if (num_pooled > 0) {
          const std::size_t per_entry = static_cast<std::size_t>(s.players) * 13;
          const std::size_t entries = boards_in.size() / per_entry;
          if (entries < 1 || entries > 100000 || boards_in.size() != entries * per_entry ||
              pool_in.size() % entries != 0) {
            throw py::value_error("ofc_advise: the pool gives 1 to 100,000 entries of cards and boards");
          }
          const std::size_t stride = pool_in.size() / entries;
          if (stride < 14 * static_cast<std::size_t>(num_pooled) || stride > 17 * static_cast<std::size_t>(num_pooled)) {
            throw py::value_error("ofc_advise: a pool entry deals 14 to 17 cards to each pooled seat");
          }
          bool in_unseen[256] = {};
          for (const char c : rest) in_unseen[static_cast<std::uint8_t>(c)] = true;
          for (std::size_t e = 0; e < entries; ++e) {
            bool here[256] = {};
            for (std::size_t k = 0; k < stride; ++k) {
              const auto c = static_cast<std::uint8_t>(pool_in[e * stride + k]);
              if (!in_unseen[c] || here[c]) throw py::value_error("ofc_advise: a pool entry's cards are distinct unseen cards");
              here[c] = true;
            }
            for (int p = 0; p < s.players; ++p) {
              if (!s.pooled[p]) continue;
              for (std::size_t k = 0; k < 13; ++k) {
                const auto c = static_cast<std::uint8_t>(boards_in[(e * static_cast<std::size_t>(s.players) + static_cast<std::size_t>(p)) * 13 + k]);
                if (!here[c]) throw py::value_error("ofc_advise: a pooled board holds its pool entry's cards, each once");
                here[c] = false;
              }
            }
          }
          s.pool_size = static_cast<int>(entries);
          s.pool_stride = static_cast<int>(stride);
          s.pool_cards = reinterpret_cast<const std::uint8_t*>(pool_in.data());
          s.pool_boards = reinterpret_cast<const std::uint8_t*>(boards_in.data());
        }
        std::vector<OfcOptionValue> values(placements.size());
        bool exact = false, ok = false;
        {
          py::gil_scoped_release release;
          ok = ofc_advise(s, placements.data(), static_cast<int>(placements.size()), rules, samples, seed,
                          values.data(), &exact);
        }
        if (!ok) throw py::value_error("ofc_advise: the unseen cards cannot fill every board");
        const auto n = static_cast<py::ssize_t>(values.size());
        py::array_t<double> mean(n), sd(n);
        py::array_t<std::int64_t> deals(n);
        auto m1 = mean.mutable_unchecked<1>();
        auto m2 = sd.mutable_unchecked<1>();
        auto m3 = deals.mutable_unchecked<1>();
        for (py::ssize_t k = 0; k < n; ++k) {
          m1(k) = values[static_cast<std::size_t>(k)].mean;
          m2(k) = values[static_cast<std::size_t>(k)].sd;
          m3(k) = values[static_cast<std::size_t>(k)].deals;
        }
        return py::make_tuple(mean, sd, deals, exact);
      },
      py::arg("rules"), py::arg("seat"), py::arg("boards"), py::arg("in_fantasyland"), py::arg("acted"),
      py::arg("streets"), py::arg("unseen"), py::arg("fl_value"), py::arg("options"), py::arg("samples"),
      py::arg("seed"), py::arg("pooled"), py::arg("pool_cards"), py::arg("pool_boards"),
      "The expected units of each placement in `options` for `seat` (cpp/include/chinese_poker/ofc_advise.hpp):\n"
      "(means, sds of one deal, deals per option, exact). `pooled`: per seat, in fantasyland with its board not\n"
      "set; `pool_cards`: each pool entry's cards (the pooled seats' hands); `pool_boards`: per entry, a 13-card\n"
      "board per seat (read for pooled seats). Releases the GIL.");
}

}  // namespace chinese_poker::bindings
