// Settlement: one round (results as read-only bound classes) and batches of rounds (numpy arrays).
#include <pybind11/native_enum.h>

#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>

#include "chinese_poker/naturals.hpp"
#include "chinese_poker/settle.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// One player's facts with the natural resolved to its kind (the core keeps an index into the rules' list).
struct BoundFacts {
  PlayerFacts facts;
  int kind = -1;  // NaturalKind, or -1
};

// A settled round, as returned to Python: the core's result and the natural kinds its indices refer to.
struct BoundRound {
  RoundResult result;
  std::array<NaturalKind, kNumNaturalKinds> kinds{};
};

py::object kind_or_none(int kind) {
  if (kind < 0) return py::none();
  return py::cast(static_cast<NaturalKind>(kind));
}

template <class T>
py::tuple triple(const T (&v)[3]) {
  return py::make_tuple(v[0], v[1], v[2]);
}

}  // namespace

[[noreturn]] void raise_settle_error(const SettleError& error, const RulesSpec& rules, const std::int64_t* stakes,
                                     int players, const std::int64_t* bets, const std::int64_t* banker) {
  Where where;
  where.item = error.round;
  where.player = error.player;
  where.other = error.other;
  const std::string round = error.round >= 0 ? "round " + std::to_string(error.round) + ", " : "";
  const std::string who = "player " + std::to_string(error.player);
  switch (error.status) {
    case SettleStatus::kBadCards:
      raise_card_issue(error.cards, error.round >= 0 ? "round" : "", true);
    case SettleStatus::kDeclaredWithoutNatural:
      raise_input_error("declared_without_natural",
                        round + who + " declared a natural but holds none of the naturals these rules list", where);
    case SettleStatus::kSurrenderOff:
      raise_input_error("surrender_off",
                        round + who + " surrendered but these rules have surrender_units = 0 (surrender is off)",
                        where);
    case SettleStatus::kBadStake: {
      const int i = error.player, j = error.other;
      std::string text = "stakes[" + std::to_string(i) + "][" + std::to_string(j) + "] = ";
      if (stakes != nullptr && i >= 0 && j >= 0) {
        const std::int64_t a = stakes[i * players + j], b = stakes[j * players + i];
        text += std::to_string(a);
        if (a < 0 || a > kMaxStake) {
          text += " is not in 0.." + std::to_string(kMaxStake);
        } else {
          text += " but stakes[" + std::to_string(j) + "][" + std::to_string(i) + "] = " + std::to_string(b) +
                  ": stakes must be symmetric";
        }
      }
      raise_input_error("bad_stake", round + text, where);
    }
    case SettleStatus::kOverflow:
      raise_input_error("overflow", round + "the units of " + who + " do not fit in 64 bits", where);
    case SettleStatus::kBadPlayerCount:
      // Fantasyland's limit comes first: it holds whatever the pack (added suits seat nobody more there).
      if (rules.fantasyland != Fantasyland::kOff && players > kMaxFantasylandPlayers && players <= kMaxPlayers) {
        raise_input_error("player_count",
                          "with fantasyland on a round has 2 or 3 players, whatever the pack (a fantasyland hand "
                          "takes 14 to 17 cards; added suits seat no more players there), got " +
                              std::to_string(players),
                          where);
      }
      if (players > kMaxDeckPlayers && players <= kMaxPlayers) {
        raise_input_error("player_count",
                          "a round of " + std::to_string(players) + " players needs " +
                              std::to_string(players - kMaxDeckPlayers) + " added suit" +
                              (players - kMaxDeckPlayers > 1 ? "s" : "") +
                              " in the pack (rules knob 'extra_suits': one per player beyond 4, e.g. \"" +
                              (players == 5 ? "s" : "sh") + "\"), got " + std::to_string(players) + " players",
                          where);
      }
      raise_input_error("player_count", "a round has 2 to 6 players (5 and 6 with added suits)", where);
    case SettleStatus::kBadBanker: {
      // The seat as given (the core names one clamped to the table), and no player: the banker is none.
      where.player = -1;
      const std::int64_t seat = banker != nullptr ? *banker : error.player;
      const std::string in_round = error.round >= 0 ? "round " + std::to_string(error.round) + ": " : "";
      raise_input_error("bad_banker",
                        in_round + "banker = " + std::to_string(seat) + " is not a seat: a round of " +
                            std::to_string(players) + " players has seats 0.." + std::to_string(players - 1) +
                            (error.round >= 0 ? " (-1: no banker)" : ""),
                        where);
    }
    case SettleStatus::kBadBet: {
      if (error.player < 0) raise_input_error("bad_bet", round + "bets are given but the round names no banker", where);
      std::string text = round + "bets[" + std::to_string(error.player) + "]";
      if (bets != nullptr) text += " = " + std::to_string(bets[error.player]);
      raise_input_error("bad_bet", text + " (" + who + ") is not in 1.." + std::to_string(kMaxBet), where);
    }
    case SettleStatus::kFantasylandOff:
      raise_input_error("fantasyland_off",
                        round + who + " played in fantasyland but these rules have fantasyland = \"off\"", where);
    case SettleStatus::kAceBasisTable:
      raise_input_error("ace_basis_table",
                        round + "rules knob 'ace_basis' = \"table\" needs a round of 4 players without a banker "
                                "(each player's ace_units x (aces - 1) sums to zero only when four players hold the "
                                "whole deck); got " + std::to_string(players) + " players" +
                            (error.other >= 0 ? " and banker seat " + std::to_string(error.other) : "") +
                            (players == kMaxDeckPlayers && error.other < 0 ? " and suits added to the pack (extra_suits)" : "") +
                            "; use ace_basis = \"pairwise\" otherwise",
                        where);
    case SettleStatus::kOk:
      break;
  }
  raise_input_error("unknown", round + "the core rejected the round", where);
}

namespace {

std::vector<bool> flags(const py::sequence& values, const char* name, int players) {
  if (static_cast<int>(values.size()) != players) {
    throw py::value_error(std::string(name) + " needs one flag per player (" + std::to_string(players) + "), got " +
                          std::to_string(values.size()));
  }
  std::vector<bool> out;
  for (const py::handle v : values) {
    if (!PyBool_Check(v.ptr())) throw py::type_error(std::string(name) + " flags must be bools");
    out.push_back(v.ptr() == Py_True);
  }
  return out;
}

// The arguments of a batch settlement, checked up front (dtype, shape, contiguity, naming the argument),
// then run on the core with the GIL released. The arrays stay referenced for as long as the call.
struct BatchCall {
  py::array_t<std::uint8_t> cards;
  py::object stakes_array, declared_array, surrendered_array, banker_array, bets_array, fantasyland_array;
  py::ssize_t count = 0;
  int players = 0;
  BatchInputs inputs;
  Parallel parallel;

  BatchCall(const py::object& rounds, const RulesSpec& rules, const py::object& stakes, const py::object& declared,
            const py::object& surrendered, const py::object& banker, const py::object& bets,
            const py::object& fantasyland, const py::object& threads) {
    check_rules(rules);
    cards = require_card_array(rounds, "rounds", 3, {13});
    count = cards.shape(0);
    players = static_cast<int>(cards.shape(1));
    if (players < kMinPlayers || players > kMaxPlayers) {
      throw py::value_error("rounds must have 2 to 6 players on axis 1, got " + std::to_string(players));
    }
    const py::ssize_t p = players;
    const std::string r_text = std::to_string(count), p_text = std::to_string(players);
    if (!stakes.is_none()) {
      const std::string shapes = "(R, P, P) = (" + r_text + ", " + p_text + ", " + p_text + ") or (P, P) = (" +
                                 p_text + ", " + p_text + ")";
      const bool one = py::isinstance<py::array>(stakes) && py::reinterpret_borrow<py::array>(stakes).ndim() == 2;
      if (one) {
        require_array(stakes, "stakes", py::dtype::of<std::int64_t>(), {p, p}, shapes);
      } else {
        require_array(stakes, "stakes", py::dtype::of<std::int64_t>(), {count, p, p}, shapes);
      }
      stakes_array = stakes;
      inputs.stakes = static_cast<const std::int64_t*>(py::reinterpret_borrow<py::array>(stakes).data());
      inputs.stakes_per_round = !one;
    }
    const std::string flags_shape = "(R, P) = (" + r_text + ", " + p_text + ")";
    if (!declared.is_none()) {
      require_array(declared, "declared", py::dtype::of<bool>(), {count, p}, flags_shape);
      declared_array = declared;
      // Read as bytes (nonzero: true): a bool array viewed from other bytes is still read without UB.
      inputs.declared = static_cast<const std::uint8_t*>(py::reinterpret_borrow<py::array>(declared).data());
    }
    if (!surrendered.is_none()) {
      require_array(surrendered, "surrender", py::dtype::of<bool>(), {count, p}, flags_shape);
      surrendered_array = surrendered;
      inputs.surrendered = static_cast<const std::uint8_t*>(py::reinterpret_borrow<py::array>(surrendered).data());
    }
    if (!banker.is_none()) {
      require_array(banker, "banker", py::dtype::of<std::int64_t>(), {count}, "(R,) = (" + r_text + ",)");
      banker_array = banker;
      inputs.banker = static_cast<const std::int64_t*>(py::reinterpret_borrow<py::array>(banker).data());
    }
    if (!bets.is_none()) {
      if (banker.is_none()) throw py::value_error("bets are given but no banker: bets need banker rounds");
      require_array(bets, "bets", py::dtype::of<std::int64_t>(), {count, p}, flags_shape);
      bets_array = bets;
      inputs.bets = static_cast<const std::int64_t*>(py::reinterpret_borrow<py::array>(bets).data());
    }
    if (!fantasyland.is_none()) {
      require_array(fantasyland, "fantasyland", py::dtype::of<bool>(), {count, p}, flags_shape);
      fantasyland_array = fantasyland;
      inputs.fantasyland = static_cast<const std::uint8_t*>(py::reinterpret_borrow<py::array>(fantasyland).data());
    }
    parallel = parallel_from(threads);
  }

  void run(const RulesSpec& rules, const BatchOutputs& outputs) const {
    SettleError error;
    {
      py::gil_scoped_release release;
      error = settle_batch(cards.data(), static_cast<std::size_t>(count), players, rules, inputs, outputs, parallel);
    }
    if (!error) return;
    const std::int64_t* stakes = inputs.stakes;
    if (stakes != nullptr && inputs.stakes_per_round && error.round >= 0) {
      stakes += error.round * players * players;
    }
    const std::int64_t* bets = inputs.bets;
    if (bets != nullptr && error.round >= 0) bets += error.round * players;
    const std::int64_t* banker = inputs.banker != nullptr && error.round >= 0 ? inputs.banker + error.round : nullptr;
    raise_settle_error(error, rules, stakes, players, bets, banker);
  }
};

}  // namespace

void register_settle(py::module_& m) {
  m.attr("MAX_STAKE") = kMaxStake;
  // PlayerFacts.foul_reasons' bits and their names, in the order the facts list them.
  m.attr("FOUL_REASONS") = py::make_tuple(py::make_tuple(kFoulFrontBeatsMiddle, "front_beats_middle"),
                                          py::make_tuple(kFoulMiddleBeatsBack, "middle_beats_back"),
                                          py::make_tuple(kFoulMiddleEqualsBack, "middle_equals_back"));
  py::native_enum<DecidedBy>(m, "DecidedBy", "enum.Enum", "What decided a pair.")
      .value("natural", DecidedBy::kNatural)
      .value("surrender", DecidedBy::kSurrender)
      .value("foul", DecidedBy::kFoul)
      .value("rows", DecidedBy::kRows)
      .value("false_declaration", DecidedBy::kFalseDeclaration)
      .value("not_played", DecidedBy::kNotPlayed)  // settle_batch columns: a pair without the banker
      .finalize();

  py::class_<BoundFacts>(m, "PlayerFacts", "What is known of one player before any pair is settled (read-only).")
      .def_property_readonly("has_setting", [](const BoundFacts& b) { return b.facts.has_setting; })
      .def_property_readonly("foul", [](const BoundFacts& b) { return b.facts.foul; })
      .def_property_readonly("foul_reasons", [](const BoundFacts& b) { return int{b.facts.foul_reasons}; },
                             "Bits: 1 front beats middle, 2 middle beats back, 4 middle equals back (strict).")
      .def_property_readonly("natural", [](const BoundFacts& b) { return kind_or_none(b.kind); })
      .def_property_readonly("strengths", [](const BoundFacts& b) { return triple(b.facts.strength); })
      .def_property_readonly("royalties", [](const BoundFacts& b) { return triple(b.facts.royalty); })
      .def_property_readonly("false_declaration", [](const BoundFacts& b) { return b.facts.false_declaration; })
      .def_property_readonly("aces", [](const BoundFacts& b) { return b.facts.aces; })
      .def_property_readonly("horse", [](const BoundFacts& b) { return b.facts.horse; })
      .def_property_readonly("fantasyland_cards", [](const BoundFacts& b) { return b.facts.fantasyland_cards; },
                             "Cards dealt next hand in fantasyland; 0 when the player does not qualify.")
      .def_property_readonly("ace_units", [](const BoundFacts& b) { return b.facts.ace_units; },
                             "ace_basis \"table\": ace_units x (aces - 1), counted apart from the pairs; else 0.")
      .def_property_readonly(
          "joker_cards",
          [](const BoundFacts& b) {
            py::tuple out(2);
            for (int k = 0; k < 2; ++k) {
              const int card = b.facts.joker_card[k];
              out[static_cast<std::size_t>(k)] = card < 0 ? py::object(py::none()) : py::object(py::int_(card));
            }
            return out;
          },
          "What X1 and X2 became (RULES.md 1.2): a card code each, or None for a joker not held.");

  py::class_<PairResult>(m, "PairResult", "One pair (i, j), i < j, every amount from i's view (read-only).")
      .def_readonly("i", &PairResult::i)
      .def_readonly("j", &PairResult::j)
      .def_readonly("decided_by", &PairResult::decided_by)
      .def_property_readonly("rows",
                             [](const PairResult& p) -> py::object {
                               if (!p.rows_known) return py::none();
                               return py::make_tuple(int{p.rows[0]}, int{p.rows[1]}, int{p.rows[2]});
                             })
      .def_readonly("natural_units", &PairResult::natural_units)
      .def_readonly("surrender_units", &PairResult::surrender_units)
      .def_readonly("row_units", &PairResult::row_units)
      .def_readonly("royalty_units", &PairResult::royalty_units)
      .def_readonly("overall_units", &PairResult::overall_units)
      .def_readonly("scoop", &PairResult::scoop)
      .def_readonly("scoop_bonus_units", &PairResult::scoop_bonus_units)
      .def_readonly("multiplier", &PairResult::multiplier)
      .def_readonly("subtotal", &PairResult::subtotal)
      .def_readonly("stake", &PairResult::stake)
      .def_readonly("home_run", &PairResult::home_run)
      .def_readonly("units", &PairResult::units)
      .def_readonly("false_declaration_units", &PairResult::false_declaration_units)
      .def_readonly("ace_units", &PairResult::ace_units)
      .def_readonly("capped", &PairResult::capped)
      .def_readonly("home_run_bonus_units", &PairResult::home_run_bonus_units)
      .def_readonly("home_run_capped", &PairResult::home_run_capped)
      .def_readonly("horse", &PairResult::horse)
      .def_readonly("bet", &PairResult::bet);

  py::class_<BoundRound>(m, "RoundResult", "A settled round (read-only): facts, pairs, home runs and net units.")
      .def_property_readonly("players", [](const BoundRound& b) { return b.result.players; })
      .def_property_readonly("banker",
                             [](const BoundRound& b) -> py::object {
                               if (b.result.banker < 0) return py::none();
                               return py::int_(b.result.banker);
                             })
      .def_property_readonly("net",
                             [](const BoundRound& b) {
                               py::tuple out(static_cast<std::size_t>(b.result.players));
                               for (int p = 0; p < b.result.players; ++p) out[static_cast<std::size_t>(p)] = b.result.net[p];
                               return out;
                             })
      .def_property_readonly("home_run",
                             [](const BoundRound& b) {
                               py::tuple out(static_cast<std::size_t>(b.result.players));
                               for (int p = 0; p < b.result.players; ++p) {
                                 out[static_cast<std::size_t>(p)] = py::bool_(b.result.home_run[p]);
                               }
                               return out;
                             })
      .def_property_readonly("facts",
                             [](const BoundRound& b) {
                               py::tuple out(static_cast<std::size_t>(b.result.players));
                               for (int p = 0; p < b.result.players; ++p) {
                                 BoundFacts f{b.result.facts[p], -1};
                                 if (f.facts.natural >= 0) f.kind = static_cast<int>(b.kinds[static_cast<std::size_t>(f.facts.natural)]);
                                 out[static_cast<std::size_t>(p)] = py::cast(f);
                               }
                               return out;
                             })
      .def_property_readonly("pairs", [](const BoundRound& b) {
        py::tuple out(static_cast<std::size_t>(b.result.num_pairs));
        for (int q = 0; q < b.result.num_pairs; ++q) out[static_cast<std::size_t>(q)] = py::cast(b.result.pairs[q]);
        return out;
      });

  m.def(
      "player_facts",
      [](const py::bytes& cards, bool declared, const RulesSpec& rules) {
        check_rules(rules);
        PlayerInput in;
        in.cards = thirteen_codes(cards, "player_facts");
        in.declared = declared;
        BoundFacts out;
        const SettleError error = player_facts(in, 0, rules, &out.facts);
        if (error.status == SettleStatus::kBadCards) raise_card_issue(error.cards, "", false);
        if (error) raise_settle_error(error, rules, nullptr, 1);
        if (out.facts.natural >= 0) out.kind = static_cast<int>(rules.natural_kind[static_cast<std::size_t>(out.facts.natural)]);
        return out;
      },
      py::arg("cards"), py::arg("declared"), py::arg("rules"),
      "Foul (and why), natural, strengths and royalties of one player's 13 cards (bytes of 13 codes).");

  m.def(
      "detect_natural",
      [](const py::bytes& cards, const RulesSpec& rules) {
        check_rules(rules);
        const int level = detect_natural(thirteen_codes(cards, "a natural"), rules);
        std::optional<NaturalKind> kind;
        if (level >= 0) kind = rules.natural_kind[static_cast<std::size_t>(level)];
        return kind;
      },
      py::arg("cards"), py::arg("rules"),
      "The highest natural the rules list that the 13 cards (bytes of codes) hold, or None.");

  m.def(
      "held_naturals",
      [](const py::bytes& cards, const RulesSpec& rules) {
        check_rules(rules);
        const std::uint32_t held = held_naturals(thirteen_codes(cards, "a natural"), rules);
        py::list out;
        for (int k = 0; k < kNumNaturalKinds; ++k) {
          if ((held >> k & 1u) != 0) out.append(py::cast(static_cast<NaturalKind>(k)));
        }
        return py::tuple(out);
      },
      py::arg("cards"), py::arg("rules"),
      "Every natural kind the 13 cards hold under the rules' knobs, listed by the rules or not.");

  m.def(
      "settle_round",
      [](const py::bytes& cards, const py::sequence& declared, const py::sequence& surrendered, const py::object& stakes,
         const RulesSpec& rules, const py::object& banker, const py::object& bets,
         const py::object& fantasyland) {
        check_rules(rules);
        const std::string_view codes = cards;
        const int players = static_cast<int>(codes.size() / 13);
        if (codes.size() % 13 != 0 || players < kMinPlayers || players > kMaxPlayers) {
          throw py::value_error("a round has 2 to 6 players of 13 cards, got " + std::to_string(codes.size()) + " cards");
        }
        const std::vector<bool> declared_flags = flags(declared, "declared", players);
        const std::vector<bool> surrender_flags = flags(surrendered, "surrendered", players);
        // Whether each player played this hand in fantasyland (None: nobody did).
        const std::vector<bool> fantasyland_flags =
            fantasyland.is_none() ? std::vector<bool>(static_cast<std::size_t>(players), false)
                                  : flags(py::reinterpret_borrow<py::sequence>(fantasyland), "fantasyland", players);
        std::array<std::int64_t, kMaxPlayers * kMaxPlayers> stake_values{};
        const std::int64_t* stake_ptr = nullptr;
        if (!stakes.is_none()) {
          if (!py::isinstance<py::array_t<std::int64_t>>(stakes)) throw py::type_error("stakes must be an int64 numpy array");
          const auto s = py::reinterpret_borrow<py::array_t<std::int64_t>>(stakes);
          if (s.ndim() != 2 || s.shape(0) != players || s.shape(1) != players) {
            throw py::value_error("stakes must be a " + std::to_string(players) + " x " + std::to_string(players) +
                                  " matrix");
          }
          const auto view = s.unchecked<2>();
          for (int i = 0; i < players; ++i) {
            for (int j = 0; j < players; ++j) stake_values[static_cast<std::size_t>(i * players + j)] = view(i, j);
          }
          stake_ptr = stake_values.data();
        }
        PlayerInput inputs[kMaxPlayers];
        for (int p = 0; p < players; ++p) {
          inputs[p].cards = reinterpret_cast<const std::uint8_t*>(codes.data()) + 13 * p;
          inputs[p].declared = declared_flags[static_cast<std::size_t>(p)];
          inputs[p].surrendered = surrender_flags[static_cast<std::size_t>(p)];
          inputs[p].fantasyland = fantasyland_flags[static_cast<std::size_t>(p)];
        }
        // Banker rounds: the core checks the seat and the bets' range.
        RoundOptions options;
        options.stakes = stake_ptr;
        std::array<std::int64_t, kMaxPlayers> bet_values{};
        if (!banker.is_none()) {
          if (PyBool_Check(banker.ptr()) || !PyLong_Check(banker.ptr())) throw py::type_error("banker must be an int seat or None");
          int overflow = 0;
          const long long seat = PyLong_AsLongLongAndOverflow(banker.ptr(), &overflow);
          if (overflow != 0 || seat < 0 || seat >= players) {
            raise_input_error("bad_banker",
                              "banker = " + std::string(py::str(banker)) + " is not a seat: a round of " +
                                  std::to_string(players) + " players has seats 0.." + std::to_string(players - 1),
                              Where{});
          }
          options.banker = static_cast<int>(seat);
        }
        if (!bets.is_none()) {
          const auto values = py::reinterpret_borrow<py::sequence>(bets);
          if (static_cast<int>(values.size()) != players) {
            throw py::value_error("bets needs one int per player (" + std::to_string(players) + "), got " +
                                  std::to_string(values.size()));
          }
          for (int p = 0; p < players; ++p) {
            const py::object v = values[static_cast<std::size_t>(p)];
            if (PyBool_Check(v.ptr()) || !PyLong_Check(v.ptr())) throw py::type_error("bets must be ints");
            int overflow = 0;
            const long long bet = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
            // Out of int64 is out of range as well: the core reports it by player.
            bet_values[static_cast<std::size_t>(p)] = overflow != 0 ? 0 : static_cast<std::int64_t>(bet);
          }
          options.bets = bet_values.data();
        }
        BoundRound out;
        out.kinds = rules.natural_kind;
        const SettleError error = settle_round(inputs, players, rules, options, &out.result);
        if (error) raise_settle_error(error, rules, stake_ptr, players, options.bets);
        return out;
      },
      py::arg("cards"), py::arg("declared"), py::arg("surrendered"), py::arg("stakes"), py::arg("rules"),
      py::arg("banker") = py::none(), py::arg("bets") = py::none(), py::arg("fantasyland") = py::none(),
      "Settles one round. cards: bytes of P x 13 codes (front 3, middle 5, back 5; a declared player's 13 in\n"
      "any order); declared, surrendered: one bool per player; stakes: None or a (P, P) int64 array;\n"
      "banker: None or the banker's seat; bets: None or one int per player (banker rounds);\n"
      "fantasyland: None or one bool per player (played this hand in fantasyland).");

  m.def(
      "settle_batch",
      [](const py::object& rounds, const RulesSpec& rules, const py::object& stakes, const py::object& declared,
         const py::object& surrendered, const py::object& banker, const py::object& bets,
         const py::object& fantasyland, const py::object& threads) {
        const BatchCall call(rounds, rules, stakes, declared, surrendered, banker, bets, fantasyland, threads);
        py::array_t<std::int64_t> net({call.count, static_cast<py::ssize_t>(call.players)});
        BatchOutputs outputs;
        outputs.net = net.mutable_data();
        call.run(rules, outputs);
        return net;
      },
      py::arg("rounds"), py::arg("rules"), py::arg("stakes") = py::none(), py::arg("declared") = py::none(),
      py::arg("surrender") = py::none(), py::arg("banker") = py::none(), py::arg("bets") = py::none(),
      py::arg("fantasyland") = py::none(), py::arg("threads") = 1,
      "Net units of R rounds: rounds is a C-contiguous uint8 array (R, P, 13), P in 2..4, each player's front 3,\n"
      "middle 5 and back 5 (a declared player's 13 in any order); returns (R, P) int64. Optional, as settle_round\n"
      "takes them per round: stakes int64 (R, P, P) or one (P, P) for every round; declared and surrender bool\n"
      "(R, P); banker int64 (R,) (the banker's seat, -1: no banker) with bets int64 (R, P) read in banker\n"
      "rounds; fantasyland bool (R, P). Validates every round; releases the GIL; the rounds are spread over\n"
      "`threads` threads (0: every core) and an error names the lowest bad round.");

  m.def(
      "settle_batch_detail",
      [](const py::object& rounds, const RulesSpec& rules, const py::object& stakes, const py::object& declared,
         const py::object& surrendered, const py::object& banker, const py::object& bets,
         const py::object& fantasyland, const py::object& threads) {
        const BatchCall call(rounds, rules, stakes, declared, surrendered, banker, bets, fantasyland, threads);
        const py::ssize_t r = call.count, q = call.players * (call.players - 1) / 2;
        py::array_t<std::int64_t> net({r, static_cast<py::ssize_t>(call.players)});
        py::array_t<std::int8_t> rows({r, q, py::ssize_t{3}});
        py::array_t<bool> rows_known({r, q});
        py::array_t<std::uint8_t> decided_by({r, q});
        py::array_t<std::int8_t> scoop({r, q});
        py::array_t<std::int64_t> subtotal({r, q}), stake({r, q}), home_run({r, q}), units({r, q});
        py::array_t<bool> foul({r, q, py::ssize_t{2}});
        py::array_t<std::int8_t> natural({r, q, py::ssize_t{2}});
        py::array_t<std::int64_t> royalties({r, q, py::ssize_t{2}, py::ssize_t{3}});
        py::array_t<std::int64_t> bet({r, q});
        const auto seats = static_cast<py::ssize_t>(call.players);
        py::array_t<std::uint8_t> fantasyland_cards({r, seats});
        py::array_t<bool> player_foul({r, seats}), player_home_run({r, seats});
        py::array_t<std::int8_t> player_natural({r, seats});
        BatchOutputs out;
        out.net = net.mutable_data();
        out.rows = rows.mutable_data();
        // numpy bools are bytes 0 / 1: written through unsigned char, which may alias any object.
        out.rows_known = reinterpret_cast<std::uint8_t*>(rows_known.mutable_data());
        out.decided_by = decided_by.mutable_data();
        out.scoop = scoop.mutable_data();
        out.subtotal = subtotal.mutable_data();
        out.stake = stake.mutable_data();
        out.home_run = home_run.mutable_data();
        out.units = units.mutable_data();
        out.foul = reinterpret_cast<std::uint8_t*>(foul.mutable_data());
        out.natural = natural.mutable_data();
        out.royalties = royalties.mutable_data();
        out.bet = bet.mutable_data();
        out.fantasyland_cards = fantasyland_cards.mutable_data();
        out.player_foul = reinterpret_cast<std::uint8_t*>(player_foul.mutable_data());
        out.player_natural = player_natural.mutable_data();
        out.player_home_run = reinterpret_cast<std::uint8_t*>(player_home_run.mutable_data());
        call.run(rules, out);
        py::dict result;
        result["net"] = net;
        result["rows"] = rows;
        result["rows_known"] = rows_known;
        result["decided_by"] = decided_by;
        result["scoop"] = scoop;
        result["subtotal"] = subtotal;
        result["stake"] = stake;
        result["home_run"] = home_run;
        result["units"] = units;
        result["foul"] = foul;
        result["natural"] = natural;
        result["royalties"] = royalties;
        result["bet"] = bet;
        result["fantasyland_cards"] = fantasyland_cards;
        result["player_foul"] = player_foul;
        result["player_natural"] = player_natural;
        result["player_home_run"] = player_home_run;
        return result;
      },
      py::arg("rounds"), py::arg("rules"), py::arg("stakes") = py::none(), py::arg("declared") = py::none(),
      py::arg("surrender") = py::none(), py::arg("banker") = py::none(), py::arg("bets") = py::none(),
      py::arg("fantasyland") = py::none(), py::arg("threads") = 1,
      "settle_batch with every pair's columns: a dict of arrays, pairs numbered as in RoundResult.pairs\n"
      "(Q = P (P - 1) / 2): net (R, P) int64; rows (R, Q, 3) int8 (0 where not known); rows_known (R, Q) bool;\n"
      "decided_by (R, Q) uint8 (DecidedBy values); scoop (R, Q) int8; subtotal, stake, home_run, units\n"
      "(R, Q) int64; foul (R, Q, 2) bool and natural (R, Q, 2) int8 (NaturalKind value or -1) of (i, j);\n"
      "royalties (R, Q, 2, 3) int64 of (i, j) per row; fantasyland_cards (R, P) uint8; player_foul and\n"
      "player_home_run (R, P) bool and player_natural (R, P) int8 (NaturalKind value or -1): each player's own.");
}

}  // namespace chinese_poker::bindings
