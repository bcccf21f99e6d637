// Open-face placement advice and the greedy baseline (cpp/include/chinese_poker/ofc_advise.hpp).
#include "chinese_poker/ofc_advise.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/settle.hpp"
#include "pair_formula.hpp"

namespace chinese_poker {

namespace {

constexpr int kRowWidth[3] = {3, 5, 5};
// Set bits of 0..31 (the subsets of at most five kept cards).
constexpr int kBits[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

// The placements of m kept cards (m = 0..5) as base-3 codes, kept card k in the row of digit k: each
// code's mask of kept cards per row and how many each row takes, in code order (the order of legal_actions).
struct RowCode {
  std::uint8_t mask[3];
  std::uint8_t used[3];
};
struct RowCodes {
  int count = 0;
  RowCode code[243] = {};
};
struct RowCodeTable {
  RowCodes by_kept[kOfcMaxHeld + 1];
  constexpr RowCodeTable() {
    for (int m = 0; m <= kOfcMaxHeld; ++m) {
      int total = 1;
      for (int k = 0; k < m; ++k) total *= 3;
      by_kept[m].count = total;
      for (int code = 0; code < total; ++code) {
        RowCode& rc = by_kept[m].code[code];
        for (int k = 0, c = code; k < m; ++k, c /= 3) {
          rc.mask[c % 3] = static_cast<std::uint8_t>(rc.mask[c % 3] | (1 << k));
          ++rc.used[c % 3];
        }
      }
    }
  }
  constexpr const RowCodes& operator[](int m) const { return by_kept[m]; }
};
constexpr RowCodeTable kRowCodes{};

Strength full_row_strength(const std::uint8_t* row, int width, const RulesSpec& rules) noexcept {
  bool general = rules.extra_suits != 0;
  for (int k = 0; k < width; ++k) general = general || is_joker(row[k]);
  if (general) return evaluate_with_jokers(row, width, rules.wheel);
  return width == 5 ? evaluate5(row, rules.wheel) : evaluate3(row);
}

// Cards dealt next hand for a legal board of strengths s, not played in fantasyland (RULES.md 4.2).
int earned_fantasyland(const RulesSpec& rules, const Strength* s) noexcept {
  if (rules.fantasyland == Fantasyland::kOff) return 0;
  const bool progressive = rules.fantasyland == Fantasyland::kProgressive;
  const int front = category_of(s[0]);
  if (front == kThreeOfAKind) return progressive ? 17 : 14;
  const int pair = vector_value(s[0], 0);
  if (front != kOnePair || pair < 12) return 0;
  return progressive ? 14 + (pair - 12) : 14;
}

// What a partial row (at most four cards) holds so far as a strength: its rank groups only (pair, two
// pair, trips, full house, quads), the top group's rank first. A joker is wild: it joins the largest
// group (the higher rank on equal sizes), which is the strongest group reading any card in its place
// gives; jokers alone read as aces. The ranks are sorted high to low and read as runs, which is the
// greedy playout's most frequent evaluation.
Strength partial_row_strength(const std::uint8_t* row, int len) noexcept {
  int rank[5];
  int n = 0;
  for (int k = 0; k < len && n < 5; ++k) {
    if (!is_joker(row[k])) rank[n++] = card_rank(row[k]) + 2;
  }
  int wild = len - n;
  for (int i = 1; i < n; ++i) {
    const int v = rank[i];
    int j = i;
    for (; j > 0 && rank[j - 1] < v; --j) rank[j] = rank[j - 1];
    rank[j] = v;
  }
  if (n == 0) {
    if (wild == 0) return make_strength(kHighCard, 0);
    n = 1, rank[0] = 14, --wild;
  }
  // Runs in falling rank order; on equal sizes the higher rank comes first.
  int first = 0, second = 0, first_rank = 0, second_rank = 0;
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && rank[j] == rank[i]) ++j;
    const int size = j - i;
    if (size > first) {
      second = first, second_rank = first_rank;
      first = size, first_rank = rank[i];
    } else if (size > second) {
      second = size, second_rank = rank[i];
    }
    i = j;
  }
  first += wild;
  if (first >= 4) return make_strength(kFourOfAKind, first_rank);
  if (first == 3) return second >= 2 ? make_strength(kFullHouse, first_rank, second_rank)
                                     : make_strength(kThreeOfAKind, first_rank);
  if (first == 2) return second == 2 ? make_strength(kTwoPair, first_rank, second_rank)
                                     : make_strength(kOnePair, first_rank);
  return make_strength(kHighCard, rank[0]);
}

double row_term(int row, Strength s, const RulesSpec& rules) noexcept {
  return static_cast<double>(royalty_of(rules, row, s)) + 0.5 * category_of(s) + 0.03 * vector_value(s, 0);
}

// A partial board's score from its rows' strengths and the sum of their terms: rows out of order so far
// are a foul in the making; a front of queens or better under rows that beat it earns half its
// fantasyland hand's value.
double partial_score(const Strength* s, double terms, const RulesSpec& rules, const double* fl_value) noexcept {
  double total = terms;
  if (s[0] > s[1]) total -= 8.0;
  if (s[1] > s[2]) total -= 8.0;
  if (s[0] <= s[1] && s[1] <= s[2]) {
    const int k = earned_fantasyland(rules, s);
    if (k >= 14 && k <= 17) total += 0.5 * fl_value[k];
  }
  return total;
}

// splitmix64: the deal of sample i comes from (seed, i) alone.
std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void place(OfcBoard& board, const OfcPlacement& p) noexcept {
  for (int k = 0; k < p.count; ++k) {
    const int r = p.rows[k];
    board.rows[r][board.len[r]++] = p.cards[k];
  }
}

// Plays `board` to the end with the greedy policy from `cards` (consumed in order): first a deal of
// `first_cards` keeping `first_keep` (none when first_cards is 0), then streets of later_cards/later_keep.
void play_out(OfcBoard& board, const std::uint8_t*& cards, int first_cards, int first_keep, const OfcSituation& s,
              const RulesSpec& rules) noexcept {
  std::uint8_t thrown[kOfcMaxHeld];
  if (first_cards > 0) {
    place(board, ofc_greedy(board, cards, first_cards, first_keep, rules, s.fl_value, thrown));
    cards += first_cards;
  }
  while (board.cards() < 13) {
    const int keep = std::min(s.later_keep, 13 - board.cards());
    place(board, ofc_greedy(board, cards, s.later_cards, keep, rules, s.fl_value, thrown));
    cards += s.later_cards;
  }
}

// Cards a seat other than `seat` still needs from the unseen cards.
int cards_to_come(const OfcSituation& s, int p) noexcept {
  const int left = 13 - s.boards[p].cards();
  if (left == 0 || s.pooled[p]) return 0;
  int need = 0, placed = 0;
  if (!s.acted[p]) need += s.street_cards, placed += s.street_keep;
  while (placed < left) need += s.later_cards, placed += s.later_keep;
  return need;
}

// A full board's 13 cards as a settlement takes them: front, middle, back.
void board_cards(const OfcBoard& board, std::uint8_t* out) noexcept {
  int at = 0;
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < board.len[r]; ++k) out[at++] = board.rows[r][k];
  }
}

// The seat's net plus its fantasyland value, with every board full.
double settle_value(const OfcSituation& s, const OfcBoard* full, const RulesSpec& rules) noexcept {
  std::uint8_t cards[kOfcMaxPlayers][13];
  PlayerInput in[kOfcMaxPlayers];
  for (int p = 0; p < s.players; ++p) {
    board_cards(full[p], cards[p]);
    in[p].cards = cards[p];
    in[p].fantasyland = s.in_fantasyland[p];
  }
  RoundResult result;
  if (settle_round(in, s.players, rules, nullptr, &result)) return 0.0;
  const int k = result.facts[s.seat].fantasyland_cards;
  return static_cast<double>(result.net[s.seat]) + (k >= 14 && k <= 17 ? s.fl_value[k] : 0.0);
}

// Whether the seat's net is the sum of its pairs' units, each settled as a table of the two alone: no home
// run (it reads every pair of a player), no natural or declaration settling the whole table, no table
// Chi A, and no pooled fantasyland seat (whose deal takes cards from every other seat's). Then on the
// last street the mean over the joint deals of the other seats is the sum over each seat of the mean over
// its own deals: a seat's completion reads only its own board and cards, and each seat's share of a
// uniform joint deal is a uniform deal of its own.
bool settles_by_pairs(const OfcSituation& s, const RulesSpec& rules) noexcept {
  if (s.pool_size > 0 || detail::home_run_possible(s.players, rules) || rules.natural_settles_table ||
      rules.ace_basis_table) {
    return false;
  }
  for (int p = 0; p < s.players; ++p) {
    if (p != s.seat && cards_to_come(s, p) == 0 && s.boards[p].cards() != 13) return false;
  }
  return true;
}

// The units the seat wins from seat p, both boards full, settled as a table of the two (in seat order).
double pair_value(const OfcSituation& s, const OfcBoard& own, int p, const OfcBoard& theirs,
                  const RulesSpec& rules) noexcept {
  std::uint8_t cards[2][13];
  PlayerInput in[2];
  const OfcBoard* boards[2] = {&own, &theirs};
  const int seats[2] = {s.seat, p};
  for (int k = 0; k < 2; ++k) {
    board_cards(*boards[k], cards[k]);
    in[k].cards = cards[k];
    in[k].fantasyland = s.in_fantasyland[seats[k]];
  }
  const bool first = s.seat < p;
  const PlayerInput ordered[2] = {first ? in[0] : in[1], first ? in[1] : in[0]};
  RoundResult result;
  if (settle_round(ordered, 2, rules, nullptr, &result)) return 0.0;
  return static_cast<double>(result.net[first ? 0 : 1]);
}

// The value of the fantasyland hand the seat's full board earns (its own facts: no other board counts).
double own_fantasyland_value(const OfcSituation& s, const OfcBoard& own, const RulesSpec& rules) noexcept {
  std::uint8_t cards[13];
  board_cards(own, cards);
  PlayerInput in;
  in.cards = cards;
  in.fantasyland = s.in_fantasyland[s.seat];
  PlayerFacts facts;
  if (player_facts(in, s.seat, rules, &facts)) return 0.0;
  const int k = facts.fantasyland_cards;
  return k >= 14 && k <= 17 ? s.fl_value[k] : 0.0;
}

// Enumerates every k-subset of the cards not yet used, for seat after seat of `order`, calling
// visit(boards) with every board full. Returns the count of joint deals.
struct Enumerator {
  const OfcSituation& s;
  const RulesSpec& rules;
  const std::vector<int>& order;
  std::vector<bool> used;
  OfcBoard boards[kOfcMaxPlayers];
  std::uint8_t chosen[kOfcMaxPlayers][17] = {};

  template <class Visit>
  void run(std::size_t at, Visit& visit) {
    if (at == order.size()) {
      visit(boards);
      return;
    }
    const int p = order[at];
    const int need = cards_to_come(s, p);
    pick(at, p, 0, need, 0, visit);
  }

  template <class Visit>
  void pick(std::size_t at, int p, int from, int need, int have, Visit& visit) {
    if (have == need) {
      const OfcBoard saved = boards[p];
      const std::uint8_t* cards = chosen[p];
      play_out(boards[p], cards, s.acted[p] ? 0 : s.street_cards, s.street_keep, s, rules);
      run(at + 1, visit);
      boards[p] = saved;
      return;
    }
    for (int c = from; c <= s.num_unseen - (need - have); ++c) {
      if (used[static_cast<std::size_t>(c)]) continue;
      used[static_cast<std::size_t>(c)] = true;
      chosen[p][have] = s.unseen[c];
      pick(at, p, c + 1, need, have + 1, visit);
      used[static_cast<std::size_t>(c)] = false;
    }
  }
};

// Sets every pooled seat's board to its board of pool entry m.
void set_pooled(const OfcSituation& s, int m, OfcBoard* boards) noexcept {
  for (int p = 0; p < s.players; ++p) {
    if (!s.pooled[p]) continue;
    const std::uint8_t* cards = s.pool_boards + (static_cast<std::size_t>(m) * static_cast<std::size_t>(s.players) +
                                                 static_cast<std::size_t>(p)) * 13;
    OfcBoard& b = boards[p];
    for (int r = 0, at = 0; r < 3; ++r) {
      b.len[r] = kRowWidth[r];
      for (int k = 0; k < kRowWidth[r]; ++k) b.rows[r][k] = cards[at++];
    }
  }
}

long binomial(int n, int k) noexcept {
  if (k < 0 || k > n) return 0;
  long r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace

double ofc_greedy_score(const OfcBoard& board, const RulesSpec& rules, const double* fl_value) noexcept {
  if (board.cards() == 13) {
    Strength s[3];
    for (int r = 0; r < 3; ++r) s[r] = full_row_strength(board.rows[r], kRowWidth[r], rules);
    if (s[0] > s[1] || s[1] > s[2] || (rules.strict_middle && s[1] == s[2])) return kOfcFoulScore;
    double total = 0.0;
    for (int r = 0; r < 3; ++r) total += static_cast<double>(royalty_of(rules, r, s[r]));
    const int k = earned_fantasyland(rules, s);
    return total + (k >= 14 && k <= 17 ? fl_value[k] : 0.0);
  }
  Strength s[3];
  double total = 0.0;
  for (int r = 0; r < 3; ++r) {
    s[r] = board.len[r] == kRowWidth[r] ? full_row_strength(board.rows[r], kRowWidth[r], rules)
                                        : partial_row_strength(board.rows[r], board.len[r]);
    total += row_term(r, s[r], rules);
  }
  return partial_score(s, total, rules, fl_value);
}

OfcPlacement ofc_greedy(const OfcBoard& board, const std::uint8_t* cards, int n, int keep, const RulesSpec& rules,
                        const double* fl_value, std::uint8_t* discards) noexcept {
  const int room[3] = {3 - board.len[0], 5 - board.len[1], 5 - board.len[2]};
  const bool fills = board.cards() + keep == 13;
  // Each row's strength, royalty and score term for every subset of the held cards it may take (at most
  // `keep` of them and its room; bit k is cards[k]): the same numbers ofc_greedy_score computes on the
  // whole board, each evaluated once per subset however many discards share it.
  struct RowCase {
    Strength strength;
    std::int64_t royalty;
    double term;
  };
  RowCase cases[3][1 << kOfcMaxHeld];
  for (int r = 0; r < 3; ++r) {
    const int most = std::min(room[r], keep);
    for (int mask = 0; mask < (1 << n); ++mask) {
      if (kBits[mask] > most) continue;
      std::uint8_t row[5];
      int len = board.len[r];
      std::copy(board.rows[r], board.rows[r] + len, row);
      for (int k = 0; k < n; ++k) {
        if ((mask >> k) & 1) row[len++] = cards[k];
      }
      RowCase& c = cases[r][mask];
      c.strength = len == kRowWidth[r] ? full_row_strength(row, len, rules) : partial_row_strength(row, len);
      c.royalty = royalty_of(rules, r, c.strength);
      c.term = row_term(r, c.strength, rules);
    }
  }
  double best_score = -1e300;
  int best_thrown = 0, best_code = 0;
  // The discarded card (n - keep is 0 or 1): index n means none. The kept cards are the held ones but
  // `thrown`, in order; a code gives kept card k the row of its k-th base-3 digit.
  const int first = n - keep == 1 ? 0 : n, last = n - keep == 1 ? n - 1 : n;
  const int m = keep;
  const RowCodes& codes = kRowCodes[m];
  for (int thrown = first; thrown <= last; ++thrown) {
    const int low = (1 << thrown) - 1;
    for (int code = 0; code < codes.count; ++code) {
      const RowCode& rc = codes.code[code];
      if (rc.used[0] > room[0] || rc.used[1] > room[1] || rc.used[2] > room[2]) continue;
      // Kept-card masks to held-card masks: a zero bit goes in at the thrown card's place.
      int mask[3];
      for (int r = 0; r < 3; ++r) mask[r] = (rc.mask[r] & low) | ((rc.mask[r] & ~low) << 1);
      const RowCase& f = cases[0][mask[0]];
      const RowCase& mid = cases[1][mask[1]];
      const RowCase& b = cases[2][mask[2]];
      const Strength s[3] = {f.strength, mid.strength, b.strength};
      double score;
      if (fills) {
        if (s[0] > s[1] || s[1] > s[2] || (rules.strict_middle && s[1] == s[2])) {
          score = kOfcFoulScore;
        } else {
          const int k = earned_fantasyland(rules, s);
          score = static_cast<double>(f.royalty + mid.royalty + b.royalty) + (k >= 14 && k <= 17 ? fl_value[k] : 0.0);
        }
      } else {
        score = partial_score(s, f.term + mid.term + b.term, rules, fl_value);
      }
      if (score > best_score) best_score = score, best_thrown = thrown, best_code = code;
    }
  }
  OfcPlacement best;
  best.count = m;
  for (int k = 0, kept = 0, c = best_code; k < n; ++k) {
    if (k == best_thrown && n - keep == 1) continue;
    best.cards[kept] = cards[k];
    best.rows[kept] = static_cast<std::uint8_t>(c % 3);
    c /= 3, ++kept;
  }
  if (n - keep == 1) discards[0] = cards[best_thrown];
  return best;
}

bool ofc_advise(const OfcSituation& s, const OfcPlacement* options, int num_options, const RulesSpec& rules,
                long samples, std::uint64_t seed, OfcOptionValue* out, bool* exact) {
  const int own_left = 13 - s.boards[s.seat].cards() - (num_options > 0 ? options[0].count : 0);
  int own_need = 0;
  for (int placed = 0; placed < own_left; placed += s.later_keep) own_need += s.later_cards;
  std::vector<int> order;
  int others_need = 0;
  for (int p = 0; p < s.players; ++p) {
    if (p == s.seat) continue;
    const int need = cards_to_come(s, p);
    if (need > 0) order.push_back(p), others_need += need;
  }
  const int pool = s.pool_size > 0 ? s.pool_size : 1;
  const int stride = s.pool_size > 0 ? s.pool_stride : 0;
  if (own_need + others_need + stride > s.num_unseen) return false;
  // Each card's place among the unseen ones, to take a pool entry's cards out.
  int index_of[256];
  std::fill(index_of, index_of + 256, -1);
  for (int c = 0; c < s.num_unseen; ++c) index_of[s.unseen[c]] = c;
  std::vector<double> sum(static_cast<std::size_t>(num_options), 0.0);
  std::vector<double> sum_sq(static_cast<std::size_t>(num_options), 0.0);
  long joint = pool;
  for (std::size_t at = 0, left = static_cast<std::size_t>(s.num_unseen - stride); at < order.size(); ++at) {
    const int need = cards_to_come(s, order[at]);
    joint *= binomial(static_cast<int>(left), need);
    left -= static_cast<std::size_t>(need);
    if (joint > kOfcMaxExactDeals) break;
  }
  if (own_left == 0 && joint <= kOfcMaxExactDeals) {
    // The last street: every joint deal of the others, each equally likely.
    std::vector<OfcBoard> own(static_cast<std::size_t>(num_options), s.boards[s.seat]);
    for (int o = 0; o < num_options; ++o) place(own[static_cast<std::size_t>(o)], options[o]);
    if (order.size() >= 2 && settles_by_pairs(s, rules)) {
      // Each other seat by itself: with 3 players 286 + 286 deals instead of 286 x 120 joint ones.
      for (int p = 0; p < s.players; ++p) {
        if (p == s.seat) continue;
        const std::vector<int> alone{p};
        Enumerator e{s, rules, alone, std::vector<bool>(static_cast<std::size_t>(s.num_unseen), false), {}, {}};
        for (int q = 0; q < s.players; ++q) e.boards[q] = s.boards[q];
        std::vector<double> seat_sum(static_cast<std::size_t>(num_options), 0.0);
        long deals_of_seat = 0;
        auto visit = [&](OfcBoard* boards) {
          ++deals_of_seat;
          for (int o = 0; o < num_options; ++o) {
            const auto at = static_cast<std::size_t>(o);
            seat_sum[at] += pair_value(s, own[at], p, boards[p], rules);
          }
        };
        if (cards_to_come(s, p) > 0) {
          e.run(0, visit);
        } else {
          visit(e.boards);
        }
        for (int o = 0; o < num_options; ++o) {
          const auto at = static_cast<std::size_t>(o);
          sum[at] += seat_sum[at] / static_cast<double>(deals_of_seat);
        }
      }
      for (int o = 0; o < num_options; ++o) {
        const auto at = static_cast<std::size_t>(o);
        out[o].mean = sum[at] + own_fantasyland_value(s, own[at], rules);
        out[o].sd = 0.0;
        out[o].deals = joint;
      }
      *exact = true;
      return true;
    }
    Enumerator e{s, rules, order, std::vector<bool>(static_cast<std::size_t>(s.num_unseen), false), {}, {}};
    for (int p = 0; p < s.players; ++p) e.boards[p] = s.boards[p];
    long count = 0;
    auto visit = [&](OfcBoard* boards) {
      ++count;
      for (int o = 0; o < num_options; ++o) {
        boards[s.seat] = own[static_cast<std::size_t>(o)];
        sum[static_cast<std::size_t>(o)] += settle_value(s, boards, rules);
      }
    };
    for (int m = 0; m < pool; ++m) {
      const std::uint8_t* taken = s.pool_cards + static_cast<std::size_t>(m) * static_cast<std::size_t>(stride);
      for (int k = 0; k < stride; ++k) e.used[static_cast<std::size_t>(index_of[taken[k]])] = true;
      set_pooled(s, m, e.boards);
      e.run(0, visit);
      for (int k = 0; k < stride; ++k) e.used[static_cast<std::size_t>(index_of[taken[k]])] = false;
    }
    for (int o = 0; o < num_options; ++o) {
      out[o].mean = sum[static_cast<std::size_t>(o)] / static_cast<double>(count);
      out[o].sd = 0.0;
      out[o].deals = count;
    }
    *exact = true;
    return true;
  }
  *exact = false;
  std::vector<std::uint8_t> deck(s.unseen, s.unseen + s.num_unseen);
  std::vector<bool> taken(static_cast<std::size_t>(s.num_unseen), false);
  const int need = own_need + others_need;
  const int dealt = s.num_unseen - stride;
  // One deal (sample i, from (seed, i) alone): the value of each option of `which` into values.
  auto deal = [&](long i, const std::vector<int>& which, double* values) {
    // The unseen cards but pool entry m's, then a partial Fisher-Yates shuffle of them.
    const int m = static_cast<int>(i % pool);
    if (stride > 0) {
      const std::uint8_t* gone = s.pool_cards + static_cast<std::size_t>(m) * static_cast<std::size_t>(stride);
      for (int k = 0; k < stride; ++k) taken[static_cast<std::size_t>(index_of[gone[k]])] = true;
      for (int c = 0, at = 0; c < s.num_unseen; ++c) {
        if (!taken[static_cast<std::size_t>(c)]) deck[static_cast<std::size_t>(at++)] = s.unseen[c];
      }
      for (int k = 0; k < stride; ++k) taken[static_cast<std::size_t>(index_of[gone[k]])] = false;
    } else {
      std::copy(s.unseen, s.unseen + s.num_unseen, deck.begin());
    }
    std::uint64_t state = mix(seed ^ mix(static_cast<std::uint64_t>(i)));
    for (int k = 0; k < need; ++k) {
      state = mix(state);
      const auto span = static_cast<std::uint64_t>(dealt - k);
      const int j = k + static_cast<int>(state % span);
      std::swap(deck[static_cast<std::size_t>(k)], deck[static_cast<std::size_t>(j)]);
    }
    OfcBoard boards[kOfcMaxPlayers];
    for (int p = 0; p < s.players; ++p) boards[p] = s.boards[p];
    if (stride > 0) set_pooled(s, m, boards);
    const std::uint8_t* next = deck.data();
    for (int p : order) play_out(boards[p], next, s.acted[p] ? 0 : s.street_cards, s.street_keep, s, rules);
    const std::uint8_t* own_cards = next;
    for (std::size_t w = 0; w < which.size(); ++w) {
      boards[s.seat] = s.boards[s.seat];
      place(boards[s.seat], options[which[w]]);
      const std::uint8_t* cards = own_cards;
      play_out(boards[s.seat], cards, 0, 0, s, rules);
      values[w] = settle_value(s, boards, rules);
    }
  };
  std::vector<long> deals(static_cast<std::size_t>(num_options), 0);
  auto at = [](int o) { return static_cast<std::size_t>(o); };
  std::vector<int> all(static_cast<std::size_t>(num_options));
  for (int o = 0; o < num_options; ++o) all[at(o)] = o;
  // Racing: with many options, a first share of the deals goes to every option; only the options not
  // clearly worse than the leader on those deals (paired over the same deals) get the rest.
  const bool race = num_options > kOfcRaceKeep && samples >= kOfcRaceMin;
  const long first = race ? std::max(kOfcRaceFirst, samples / kOfcRaceShare) : samples;
  std::vector<double> values(static_cast<std::size_t>(num_options));
  std::vector<double> kept_values(race ? static_cast<std::size_t>(first) * all.size() : 0);
  for (long i = 0; i < first; ++i) {
    deal(i, all, values.data());
    for (int o = 0; o < num_options; ++o) {
      const double v = values[at(o)];
      sum[at(o)] += v, sum_sq[at(o)] += v * v;
      if (race) kept_values[static_cast<std::size_t>(i) * all.size() + at(o)] = v;
    }
  }
  for (int o = 0; o < num_options; ++o) deals[at(o)] = first;
  if (race) {
    int leader = 0;
    for (int o = 1; o < num_options; ++o) {
      if (sum[at(o)] > sum[at(leader)]) leader = o;
    }
    std::vector<std::pair<double, int>> close;
    for (int o = 0; o < num_options; ++o) {
      double d_sum = 0.0, d_sq = 0.0;
      for (long i = 0; i < first; ++i) {
        const std::size_t row = static_cast<std::size_t>(i) * all.size();
        const double d = kept_values[row + at(o)] - kept_values[row + at(leader)];
        d_sum += d, d_sq += d * d;
      }
      const auto n = static_cast<double>(first);
      const double mean = d_sum / n;
      const double se = std::sqrt(std::max((d_sq - n * mean * mean) / (n - 1.0), 0.0) / n);
      if (mean + kOfcRaceSlack * se >= 0.0) close.emplace_back(-sum[at(o)], o);
    }
    std::sort(close.begin(), close.end());
    if (close.size() > static_cast<std::size_t>(kOfcRaceKeep)) close.resize(static_cast<std::size_t>(kOfcRaceKeep));
    std::vector<int> which;
    for (const auto& c : close) which.push_back(c.second);
    std::sort(which.begin(), which.end());
    for (long i = first; i < samples; ++i) {
      deal(i, which, values.data());
      for (std::size_t w = 0; w < which.size(); ++w) {
        const double v = values[w];
        sum[at(which[w])] += v, sum_sq[at(which[w])] += v * v;
      }
    }
    for (int o : which) deals[at(o)] = samples;
  }
  for (int o = 0; o < num_options; ++o) {
    const auto n = static_cast<double>(deals[at(o)]);
    const double mean = sum[at(o)] / n;
    const double var = n > 1.0 ? (sum_sq[at(o)] - n * mean * mean) / (n - 1.0) : 0.0;
    out[o].mean = mean;
    out[o].sd = std::sqrt(std::max(var, 0.0));
    out[o].deals = deals[at(o)];
  }
  return true;
}

}  // namespace chinese_poker
