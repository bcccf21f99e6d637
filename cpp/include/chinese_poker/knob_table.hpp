// The knob table: every rule knob of docs/RULES.md, described once, as data.
//
// CP_KNOB_TABLE(X) calls X once per knob, in the order of the fields of chinese_poker.Rules:
//
//   X(kind, name, Type, member, default, low, high, values, group, section, description)
//
// - kind: FLAG (an enum-like knob of two values, stored as a bool that is true for the second value),
//   ENUM (an enum-like knob stored as the enum class Type, whose members are the values in order),
//   BOOL, INT (an integer stored as Type, from low to high) or TABLE (a compound knob: its members are
//   declared by hand in RulesSpec and its binding is written by hand; member names them for the reader).
// - default: the stored default (FLAG and ENUM: the index of the default value, always 0, the first
//   value; TABLE: the default as JSON text).
// - values: the allowed values of an enum-like knob, '|'-separated, the default first ("" otherwise).
// - group: the heading the knob is listed under (KnobGroup); section: where docs/RULES.md defines it.
// - description: one line, what the knob does.
//
// From this one list come RulesSpec's plain members and their defaults (rules.hpp), validate_rules'
// ranges (rules.cpp), the binding's properties and _core.knob_table() (bindings/register_rules.cpp), and
// on the Python side the knobs' vocabulary, the command line's knob phrases and help(Rules).
// A new plain knob is one row here, its field in Rules, and its behaviour in the core and the reference.
#pragma once

#include <cstddef>
#include <cstdint>

// clang-format off
#define CP_KNOB_TABLE(X) \
  X(ENUM, wheel, ::chinese_poker::Wheel, wheel, 0, 0, 0, "low|second", \
    "ranking", "2.2", "where A-2-3-4-5 ranks among straights: lowest, or just below A-high") \
  X(ENUM, suit_tiebreak, ::chinese_poker::SuitTiebreak, suit_tiebreak, 0, 0, 0, "off|highest_card|by_card", \
    "ranking", "2.4", "whether suits break a tie between rows of equal rank, and how: the most important group's cards first, or the highest card first") \
  X(TABLE, suit_order, void, suit_value, "\"shdc\"", 0, 0, \
    "shdc|shcd|sdhc|sdch|schd|scdh|hsdc|hscd|hdsc|hdcs|hcsd|hcds|dshc|dsch|dhsc|dhcs|dcsh|dchs|cshd|csdh|chsd|chds|cdsh|cdhs", \
    "ranking", "2.4", "the suit ranking of that tie-break") \
  X(FLAG, middle_vs_back, bool, strict_middle, 0, 0, 0, "non_strict|strict", \
    "ranking", "2.5", "whether a middle equal to the back is legal (non_strict) or a foul (strict)") \
  X(INT, overall_unit, std::int64_t, overall_unit, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "pair", "3", "extra units for winning the pair overall (step 5)") \
  X(FLAG, overall_basis, bool, overall_by_total, 0, 0, 0, "two_rows|total", \
    "pair", "3", "who wins the pair overall: two rows or more, or ahead on the total (step 5)") \
  X(INT, scoop_bonus, std::int64_t, scoop_bonus, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "pair", "3", "extra units for winning all three rows (step 6)") \
  X(INT, scoop_multiplier, std::int64_t, scoop_multiplier, 1, 1, ::chinese_poker::kMaxUnits, "", \
    "pair", "3", "what a scoop multiplies the pair's result by, shooting (step 6)") \
  X(BOOL, royalties_in_multiplier, bool, royalties_in_multiplier, false, 0, 0, "", \
    "pair", "3", "whether the scoop multiplier applies to royalties too (step 6)") \
  X(INT, home_run_multiplier, std::int64_t, home_run_multiplier, 1, 1, ::chinese_poker::kMaxUnits, "", \
    "pair", "3", "a further multiplier for scooping every opponent, the home run (1 = none)") \
  X(INT, home_run_min_opponents, int, home_run_min_opponents, 3, 1, 3, "", \
    "pair", "3", "how many opponents a home run needs") \
  X(TABLE, royalties, void, royalty, "[]", 0, 0, "", \
    "royalties", "4", "the bonus units of special rows: 'pagat', 'eastern' or a table {row: {key: units}}") \
  X(FLAG, royalty_mode, bool, royalty_add, 0, 0, 0, "replace|add", \
    "royalties", "4", "a won royalty row pays the table value instead of its unit (replace) or on top (add)") \
  X(FLAG, royalty_condition, bool, royalty_always, 0, 0, 0, "win_row|always", \
    "royalties", "4", "who collects a royalty: the row's winner, or every holder") \
  X(BOOL, royalty_cancel, bool, royalty_cancel, false, 0, 0, "", \
    "royalties", "4", "when both hold royalty hands in a row, the winner gets the plain unit only") \
  X(ENUM, foul_policy, ::chinese_poker::FoulPolicy, foul_policy, 0, 0, 0, "lose_all_rows|as_scooped|as_laid", \
    "pair", "3", "what a fouled hand pays a legal one: three rows, as if scooped, or nothing (rows as laid) (step 3)") \
  X(BOOL, foul_pays_royalties, bool, foul_pays_royalties, true, 0, 0, "", \
    "pair", "3", "whether a fouled hand pays the legal player's royalties (step 3)") \
  X(TABLE, naturals, void, natural_kind, "[]", 0, 0, "", \
    "naturals", "5", "the 13-card special hands that count and their units: [name, units] pairs, lowest first") \
  X(FLAG, natural_declaration, bool, natural_auto, 0, 0, 0, "must_declare|auto", \
    "naturals", "5", "a natural counts only when declared, or whenever held") \
  X(ENUM, natural_tiebreak, ::chinese_poker::NaturalTiebreak, natural_tiebreak, 0, 0, 0, "full|top_pair_only|none", \
    "naturals", "5", "how two naturals of one kind compare: fully, six pairs by the top pair alone, or never") \
  X(BOOL, quads_as_two_pairs, bool, quads_as_two_pairs, true, 0, 0, "", \
    "naturals", "5", "four of a kind counts as two pairs for six pairs") \
  X(BOOL, trips_as_pair_plus_single, bool, trips_as_pair_plus_single, true, 0, 0, "", \
    "naturals", "5", "three of a kind counts as a pair and an odd card for six pairs") \
  X(INT, surrender_units, std::int64_t, surrender_units, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "pair", "3", "what a surrendering player pays each opponent (0 = no surrender) (step 2)") \
  X(BOOL, three_straights_front_a23, bool, three_straights_front_a23, true, 0, 0, "", \
    "naturals", "10", "A-2-3 is a front straight for three straights (and three straight flushes)") \
  X(BOOL, three_straights_front_qka, bool, three_straights_front_qka, true, 0, 0, "", \
    "naturals", "10", "Q-K-A is a front straight for them") \
  X(BOOL, three_straights_wheel, bool, three_straights_wheel, true, 0, 0, "", \
    "naturals", "10", "A-2-3-4-5 is a middle or back straight for them") \
  X(BOOL, three_flushes_distinct_suits, bool, three_flushes_distinct_suits, false, 0, 0, "", \
    "naturals", "10", "three flushes (and three straight flushes) need three different suits") \
  X(BOOL, quads_as_trips, bool, quads_as_trips, true, 0, 0, "", \
    "naturals", "10", "four of a kind counts as trips for four trips and two trips three pairs") \
  X(TABLE, row_base, void, row_base, "[1, 1, 1]", 1, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.5", "units of a won front, middle and back: three ints") \
  X(INT, ace_units, std::int64_t, ace_units, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.8", "Chi A: a side payment of ace_units x (aces_i - aces_j) per pair") \
  X(INT, pair_cap, std::int64_t, pair_cap, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.9", "largest units of a pair decided by rows or a foul, after shooting (0 = off)") \
  X(INT, home_run_cap, std::int64_t, home_run_cap, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.9", "largest units of a home-run pair, after the home run (0 = off)") \
  X(INT, home_run_bonus, std::int64_t, home_run_bonus, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.9", "units added to each pair of a home run") \
  X(BOOL, home_run_counts_naturals, bool, home_run_counts_naturals, false, 0, 0, "", \
    "real_table", "11.9", "a pair won by a natural counts as a shot for the home run") \
  X(BOOL, foul_counts_for_home_run, bool, foul_counts_for_home_run, false, 0, 0, "", \
    "real_table", "11.9", "under foul_policy lose_all_rows, a pair won from a fouled hand counts as a shot toward the home run") \
  X(ENUM, natural_vs_natural, ::chinese_poker::NaturalVsNatural, natural_vs_natural, 0, 0, 0, "by_kind|by_units|net|push", \
    "real_table", "11.1", "how two naturals pay each other") \
  X(BOOL, natural_settles_table, bool, natural_settles_table, false, 0, 0, "", \
    "real_table", "11.1", "a natural (or a false declaration) anywhere settles every pair by declarations only") \
  X(FLAG, natural_units_mode, bool, natural_units_as_home_run, 0, 0, 0, "table|as_home_run", \
    "real_table", "11.1", "a natural collects its listed units, or what a sweep of the table pays") \
  X(INT, false_declaration_units, std::int64_t, false_declaration_units, 0, 0, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.0", "what declaring a natural one does not hold pays each opponent (0 = an error)") \
  X(TABLE, horse_card, void, horse_card, "null", 0, 51, "", \
    "real_table", "11.9", "the horse card, such as 'As': every pair of its holder is multiplied (none = off)") \
  X(INT, horse_multiplier, std::int64_t, horse_multiplier, 2, 1, ::chinese_poker::kMaxUnits, "", \
    "real_table", "11.9", "what the horse card multiplies its holder's pairs by") \
  X(FLAG, foul_vs_foul, bool, foul_vs_foul_as_laid, 0, 0, 0, "push|as_laid", \
    "real_table", "11.3", "two fouled hands pay each other nothing, or compare their rows as laid") \
  X(ENUM, fantasyland, ::chinese_poker::Fantasyland, fantasyland, 0, 0, 0, "off|standard|progressive", \
    "open_face", "4.2", "who is dealt a fantasyland hand next: queens or better in front (14 cards), or QQ 14, KK 15, AA 16, trips 17") \
  X(FLAG, ace_basis, bool, ace_basis_table, 0, 0, 0, "pairwise|table", \
    "real_table", "11.9", "Chi A per pair, or each player ace_units x (aces - 1) against the table (4 players)") \
  X(FLAG, shooting, bool, shooting_no_lost_row, 0, 0, 0, "scoop|no_lost_row", \
    "real_table", "11.7", "the scoop multiplier needs three won rows, or a winner who lost no row") \
  X(FLAG, home_run_scope, bool, home_run_scope_table, 0, 0, 0, "own_pairs|table", \
    "real_table", "11.9", "a home run multiplies its player's pairs, or every pair of the round") \
  X(TABLE, extra_suits, void, extra_suits, "\"\"", 0, 0, "", \
    "pack", "1.1", "suits whose 13 cards are in the pack once more: '' or one or two suit letters; 5 and 6 players") \
  X(INT, jokers, std::uint8_t, jokers, 0, 0, ::chinese_poker::kMaxJokers, "", \
    "pack", "1.2", "jokers in the pack, X1 and X2, each standing for the card that makes its row strongest") \
  X(ENUM, ofc_variant, ::chinese_poker::OfcVariant, ofc_variant, 0, 0, 0, "classic|pineapple", \
    "open_face", "4.3", "how an open-face hand is dealt: 5 then 8 streets of 1 (classic), or 5 then 4 streets of 3, placing 2 and discarding 1 (pineapple)")
// clang-format on

namespace chinese_poker {

enum class KnobKind : std::uint8_t { kFlag, kEnum, kBool, kInt, kTable };

// One row of the knob table, as the binding and the tests read it.
struct KnobRow {
  const char* name;
  KnobKind kind;
  const char* member;  // the RulesSpec member the knob sets (a TABLE knob: its first member)
  const char* default_text;  // TABLE knobs: the default as JSON text; others: nullptr
  std::int64_t default_value;  // FLAG, ENUM: index of the default value; BOOL: 0 or 1; INT: the value
  std::int64_t low;
  std::int64_t high;
  const char* values;
  const char* group;
  const char* section;
  const char* description;
};

// The number of '|'-separated values of an enum-like knob.
constexpr int knob_value_count(const char* values) noexcept {
  if (values[0] == '\0') return 0;
  int count = 1;
  for (const char* c = values; *c != '\0'; ++c) count += *c == '|' ? 1 : 0;
  return count;
}

}  // namespace chinese_poker
