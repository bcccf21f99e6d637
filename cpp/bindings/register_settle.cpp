#include <string>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/naturals.hpp"
#include "chinese_poker/settle.hpp"
#include "register.hpp"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

const char* const kDecidedBy[4] = {"natural", "surrender", "foul", "rows"};

py::object natural_name_or_none(const RulesSpec& rules, int level) {
  if (level < 0) return py::none();
  return py::str(natural_name(rules.natural_kind[level]));
}

std::string describe_round_issue(const CardIssue& issue, const char* where) {
  std::string text = std::string(where) + "player " + std::to_string(issue.position / 13) + ", index " +
                     std::to_string(issue.position % 13) + ": ";
  if (issue.kind == CardIssueKind::kOutOfRange) return text + "card code " + std::to_string(issue.card) + " is not in 0..51";
  return text + "card " + format_card(issue.card) + " appears twice at the table";
}

void raise_settle_error(const SettleError& error) {
  if (error.status == SettleStatus::kDeclaredWithoutNatural) {
    throw py::value_error("player " + std::to_string(error.player) +
                          " declared a natural but holds none of the naturals these rules list");
  }
  if (error.status == SettleStatus::kSurrenderOff) {
    throw py::value_error("player " + std::to_string(error.player) +
                          " surrendered but these rules have surrender_units = 0 (surrender is off)");
  }
}

py::dict facts_to_dict(const PlayerFacts& f, const RulesSpec& rules) {
  py::dict d;
  d["has_setting"] = f.has_setting;
  d["foul"] = f.foul;
  d["natural"] = natural_name_or_none(rules, f.natural);
  d["strengths"] = py::make_tuple(f.strength[0], f.strength[1], f.strength[2]);
  d["royalties"] = py::make_tuple(f.royalty[0], f.royalty[1], f.royalty[2]);
  return d;
}

}  // namespace


void register_settle(py::module_& m) {
  m.def(
      "player_facts",
      [](const py::object& cards, bool declared, const RulesSpec& rules) {
        auto arr = require_card_array(cards, "cards", 1, {13});
        const CardIssue issue = check_cards(arr.data(), 13, 0);
        if (issue) {
          throw py::value_error("index " + std::to_string(issue.position) + ": card code " +
                                std::to_string(issue.card) + (issue.kind == CardIssueKind::kOutOfRange
                                                                  ? " is not in 0..51"
                                                                  : " appears twice"));
        }
        PlayerInput in;
        in.cards = arr.data();
        in.declared = declared;
        PlayerFacts facts;
        const SettleError error = player_facts(in, 0, rules, &facts);
        if (error.status == SettleStatus::kDeclaredWithoutNatural) {
          throw py::value_error("declared a natural but holds none of the naturals these rules list");
        }
        return facts_to_dict(facts, rules);
      },
      py::arg("cards"), py::arg("declared"), py::arg("rules"),
      "Foul, natural, strengths and royalties of one player's 13 cards (uint8 array of shape (13,)).");

  m.def(
      "settle_round",
      [](const py::object& cards, const std::vector<bool>& declared, const std::vector<bool>& surrendered,
         const py::object& stakes, const RulesSpec& rules) {
        auto arr = require_card_array(cards, "cards", 2, {13});
        const int players = static_cast<int>(arr.shape(0));
        if (players < 2 || players > kMaxPlayers) {
          throw py::value_error("a round has 2 to 4 players, got " + std::to_string(players));
        }
        if (static_cast<int>(declared.size()) != players || static_cast<int>(surrendered.size()) != players) {
          throw py::value_error("declared and surrendered need one flag per player");
        }
        const CardIssue issue = check_round(arr.data(), players, 0);
        if (issue.kind == CardIssueKind::kDuplicate) {
          // Name both holders: the first place the card appears, then the repeat check_round found.
          const int repeat = issue.position;
          const int first = issue.first_position;
          const std::string card = format_card(issue.card);
          if (first / 13 == repeat / 13) {
            throw py::value_error("player " + std::to_string(repeat / 13) + " holds card " + card + " twice");
          }
          throw py::value_error("card " + card + " is held by player " + std::to_string(first / 13) + " and player " +
                                std::to_string(repeat / 13));
        }
        if (issue) throw py::value_error(describe_round_issue(issue, ""));
        std::vector<std::int64_t> stake_values;
        if (!stakes.is_none()) {
          auto s = py::cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>(stakes);
          if (s.ndim() != 2 || s.shape(0) != players || s.shape(1) != players) {
            throw py::value_error("stakes must be a " + std::to_string(players) + " x " + std::to_string(players) +
                                  " matrix");
          }
          stake_values.assign(s.data(), s.data() + players * players);
        }
        PlayerInput inputs[kMaxPlayers];
        for (int p = 0; p < players; ++p) {
          inputs[p].cards = arr.data() + 13 * p;
          inputs[p].declared = declared[p];
          inputs[p].surrendered = surrendered[p];
        }
        RoundResult result;
        const SettleError error =
            settle_round(inputs, players, rules, stake_values.empty() ? nullptr : stake_values.data(), &result);
        raise_settle_error(error);
        py::list facts, pairs, net, home_run;
        for (int p = 0; p < players; ++p) {
          facts.append(facts_to_dict(result.facts[p], rules));
          net.append(result.net[p]);
          home_run.append(result.home_run[p]);
        }
        for (int q = 0; q < result.num_pairs; ++q) {
          const PairResult& pr = result.pairs[q];
          py::dict d;
          d["i"] = pr.i;
          d["j"] = pr.j;
          d["decided_by"] = kDecidedBy[static_cast<int>(pr.decided_by)];
          d["rows"] = pr.rows_known ? py::object(py::make_tuple(int(pr.rows[0]), int(pr.rows[1]), int(pr.rows[2])))
                                    : py::object(py::none());
          d["natural_units"] = pr.natural_units;
          d["surrender_units"] = pr.surrender_units;
          d["row_units"] = pr.row_units;
          d["royalty_units"] = pr.royalty_units;
          d["overall_units"] = pr.overall_units;
          d["scoop"] = pr.scoop;
          d["scoop_bonus_units"] = pr.scoop_bonus_units;
          d["multiplier"] = pr.multiplier;
          d["subtotal"] = pr.subtotal;
          d["stake"] = pr.stake;
          d["home_run"] = pr.home_run;
          d["units"] = pr.units;
          pairs.append(d);
        }
        py::dict out;
        out["players"] = facts;
        out["pairs"] = pairs;
        out["net"] = net;
        out["home_run"] = home_run;
        return out;
      },
      py::arg("cards"), py::arg("declared"), py::arg("surrendered"), py::arg("stakes"), py::arg("rules"),
      "Settles one round: cards is a (P, 13) uint8 array (front 3, middle 5, back 5; a declared player's 13\n"
      "cards in any order). Returns the breakdown as plain data.");

  m.def(
      "settle_batch",
      [](const py::object& rounds, const RulesSpec& rules) {
        auto arr = require_card_array(rounds, "rounds", 3, {13});
        const auto count = static_cast<std::size_t>(arr.shape(0));
        const int players = static_cast<int>(arr.shape(1));
        if (players < 2 || players > kMaxPlayers) {
          throw py::value_error("rounds must have 2 to 4 players on axis 1, got " + std::to_string(players));
        }
        py::array_t<std::int64_t> out({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(players)});
        const std::uint8_t* in = arr.data();
        std::int64_t* dst = out.mutable_data();
        CardIssue issue;
        {
          py::gil_scoped_release release;
          issue = settle_batch(in, count, players, rules, dst);
        }
        if (issue) {
          throw py::value_error(describe_round_issue(issue, ("round " + std::to_string(issue.item) + ", ").c_str()));
        }
        return out;
      },
      py::arg("rounds"), py::arg("rules"),
      "Net units of R rounds: rounds is a C-contiguous uint8 array (R, P, 13), P in 2..4, each player's front 3,\n"
      "middle 5 and back 5; returns (R, P) int64. Validates every round; releases the GIL.");
}

}  // namespace chinese_poker::bindings
