// The full output of the rounds scan_round_lines read: their columns gathered from the scan and written by
// write_each_round_output (cpp/include/chinese_poker/round_lines.hpp, round_output.hpp).
#include <charconv>
#include <cstring>
#include <string>
#include <vector>

#include "chinese_poker/round_lines.hpp"
#include "chinese_poker/round_output.hpp"

namespace chinese_poker {

namespace {

constexpr std::size_t kCardsPerHand = 13;

}  // namespace

void ScannedColumns::clear() {
  round_of.clear();
  rules_index.clear();
  for (auto* column : {&players, &cards, &declared, &surrendered, &fantasyland, &has_stakes, &has_bets, &id_is_json}) {
    column->clear();
  }
  stakes.clear();
  banker.clear();
  bets.clear();
  text.clear();
  offsets.assign(1, 0);
  any_surrender = any_fantasyland = any_banker = false;
}

void ScannedColumns::add(std::string_view chunk, const RoundScan& scan, std::size_t r, std::uint32_t rules_at) {
  const ScannedRound& round = scan.rounds[r];
  const auto p = static_cast<std::size_t>(round.players);
  round_of.push_back(r);
  rules_index.push_back(rules_at);
  players.push_back(static_cast<std::uint8_t>(round.players));
  const std::uint8_t* codes = scan.cards.data() + round.cards;
  cards.insert(cards.end(), codes, codes + p * kCardsPerHand);
  for (std::size_t s = 0; s < p; ++s) {
    declared.push_back(static_cast<std::uint8_t>(round.declared >> s & 1u));
    surrendered.push_back(static_cast<std::uint8_t>(round.surrendered >> s & 1u));
    fantasyland.push_back(static_cast<std::uint8_t>(round.fantasyland >> s & 1u));
  }
  any_surrender = any_surrender || round.surrendered != 0;
  any_fantasyland = any_fantasyland || round.fantasyland != 0;
  has_stakes.push_back(round.stakes != ScannedRound::kNone ? 1 : 0);
  if (round.stakes != ScannedRound::kNone) {
    const std::int64_t* matrix = scan.stakes.data() + round.stakes;
    stakes.insert(stakes.end(), matrix, matrix + p * p);
  }
  banker.push_back(round.banker);
  any_banker = any_banker || round.banker >= 0;
  has_bets.push_back(round.bets != ScannedRound::kNone ? 1 : 0);
  if (round.bets != ScannedRound::kNone) {
    const std::int64_t* given = scan.bets.data() + round.bets;
    bets.insert(bets.end(), given, given + p);
  }
  // The id: a string's value, or an integer (the round's own, or its position) as its decimal text.
  const RoundLineId& id = round.id;
  if (id.kind == RoundIdKind::kString) {
    text.append((id.decoded ? std::string_view(scan.strings) : chunk).substr(id.begin, id.length));
    id_is_json.push_back(0);
  } else {
    char digits[24];
    const auto digits_end = std::to_chars(digits, digits + sizeof digits, id.value).ptr;
    text.append(digits, digits_end);
    id_is_json.push_back(1);
  }
  offsets.push_back(text.size());
  for (int seat = 0; seat < round.players; ++seat) {
    char default_name[2];
    text.append(round.name(chunk, scan.strings, seat, default_name));
    offsets.push_back(text.size());
  }
}

RoundOutputBatch ScannedColumns::batch(const std::vector<OutputRules>& rules) const {
  RoundOutputBatch out;
  out.rounds = round_of.size();
  out.rules = rules.data();
  out.num_rules = rules.size();
  out.rules_index = rules_index.data();
  out.players = players.data();
  out.cards = cards.data();
  out.declared = declared.data();
  out.surrendered = any_surrender ? surrendered.data() : nullptr;
  out.fantasyland = any_fantasyland ? fantasyland.data() : nullptr;
  out.has_stakes = has_stakes.data();
  out.stakes = stakes.data();
  out.banker = any_banker ? banker.data() : nullptr;
  out.has_bets = has_bets.data();
  out.bets = bets.data();
  out.text = text;
  out.offsets = offsets.data();
  out.id_is_json = id_is_json.data();
  return out;
}

void write_scanned_full(std::string_view text, RoundScan* scan, const std::vector<const OutputRules*>& rules,
                        const OutputRules& fallback, const RoundOutputFormat& format, const Parallel& parallel,
                        std::string* out, std::vector<std::size_t>* ends, ScannedColumns* columns) {
  // The distinct rules, the fallback last.
  std::vector<OutputRules> known;
  known.reserve(rules.size() + 1);
  for (const OutputRules* given : rules) known.push_back(given != nullptr ? *given : OutputRules{});
  known.push_back(fallback);
  const auto fallback_at = static_cast<std::uint32_t>(rules.size());
  columns->clear();
  for (std::size_t r = 0; r < scan->rounds.size(); ++r) {
    ScannedRound& round = scan->rounds[r];
    if (!round.read) continue;
    if (round.rules >= 0 && rules[static_cast<std::size_t>(round.rules)] == nullptr) {
      round.read = false;
      continue;
    }
    columns->add(text, *scan, r, round.rules >= 0 ? static_cast<std::uint32_t>(round.rules) : fallback_at);
  }
  const std::size_t count = columns->round_of.size();
  std::vector<std::size_t>& written = columns->written;
  std::vector<std::uint8_t>& settled = columns->settled;
  written.resize(count);
  settled.resize(count);
  const std::size_t first = out->size();
  write_each_round_output(columns->batch(known), format, parallel, out, written.data(), settled.data());
  ends->assign(scan->rounds.size(), 0);
  std::size_t end = first;
  for (std::size_t b = 0, r = 0; r < scan->rounds.size(); ++r) {
    if (b < count && columns->round_of[b] == r) {
      if (settled[b] != 0) {
        end = first + written[b];
      } else {
        scan->rounds[r].read = false;
      }
      ++b;
    }
    (*ends)[r] = end;
  }
}

}  // namespace chinese_poker
