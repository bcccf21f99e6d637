// The core's own tests, runnable without Python (and under ASan/UBSan in CI).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "chinese_poker/card_text.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/fair.hpp"
#include "chinese_poker/naturals.hpp"
#include "chinese_poker/ofc_advise.hpp"
#include "chinese_poker/round_lines.hpp"
#include "chinese_poker/round_output.hpp"
#include "chinese_poker/settle.hpp"
#include "bits.hpp"
#include "checked.hpp"

using namespace chinese_poker;

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond)                                                    \
  do {                                                                 \
    ++g_checks;                                                        \
    if (!(cond)) {                                                     \
      ++g_failures;                                                    \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                  \
  } while (0)

static std::vector<std::uint8_t> cards_of(std::initializer_list<const char*> tokens) {
  std::vector<std::uint8_t> out;
  for (const char* t : tokens) {
    const int c = parse_card_token(t);
    CHECK(c >= 0);
    out.push_back(static_cast<std::uint8_t>(c));
  }
  return out;
}

static Strength eval(std::initializer_list<const char*> tokens, Wheel wheel = Wheel::Low) {
  const auto c = cards_of(tokens);
  return c.size() == 5 ? evaluate5(c.data(), wheel) : evaluate3(c.data());
}

static void test_cards() {
  CHECK(parse_card_token("As") == 51);
  CHECK(parse_card_token("2c") == 0);
  CHECK(parse_card_token("10h") == make_card(8, 2));
  CHECK(parse_card_token("td") == make_card(8, 1));
  CHECK(parse_card_token("K\xE2\x99\xA0") == make_card(11, 3));
  CHECK(parse_card_token("Ax") == -1);
  CHECK(parse_card_token("1s") == -1);
  CHECK(parse_card_token("") == -1);
  CHECK(parse_card_token(" As ") == 51);
  CHECK(parse_card_token("\xC5\xBF") == -1);  // U+017F folds to 's' in Python; not a suit here
  {
    std::uint8_t out[8];
    std::size_t n = 0;
    CardTextIssue t = parse_card_text("As,kd;10h\xE3\x80\x80" "2\xE2\x99\xA3 3c4d", out, 8, &n);
    CHECK(t.ok && n == 6 && out[0] == 51 && out[2] == make_card(8, 2) && out[3] == 0 && out[5] == make_card(2, 1));
    t = parse_card_text("As Kd Xx9s 2c", out, 8, &n);
    CHECK(!t.ok && t.card_index == 2 && t.begin == 6 && t.end == 10);
    t = parse_card_text("As Kd Qh", out, 2, &n);
    CHECK(t.ok && n == 3);  // counts past the capacity, writes only what fits
  }
  CHECK(format_card(51) == "As");
  CHECK(format_card(52) == "X1" && format_card(53) == "X2" && format_card(54) == "??");
  for (int c = 0; c < kDeckSize; ++c) CHECK(parse_card_token(format_card(c)) == c);
}

static void test_exhaustive_five(Wheel wheel) {
  std::map<int, long> hands_per_category;
  std::map<int, std::set<Strength>> classes_per_category;
  std::vector<std::uint8_t> all;
  all.reserve(2598960 * 5);
  for (int a = 0; a < 52; ++a)
    for (int b = a + 1; b < 52; ++b)
      for (int c = b + 1; c < 52; ++c)
        for (int d = c + 1; d < 52; ++d)
          for (int e = d + 1; e < 52; ++e) {
            const std::uint8_t h[5] = {std::uint8_t(a), std::uint8_t(b), std::uint8_t(c), std::uint8_t(d),
                                       std::uint8_t(e)};
            all.insert(all.end(), h, h + 5);
            const Strength s = evaluate5(h, wheel);
            ++hands_per_category[category_of(s)];
            classes_per_category[category_of(s)].insert(s);
          }
  const long expected[9] = {1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40};
  const std::size_t expected_classes[9] = {1277, 2860, 858, 858, 10, 1277, 156, 156, 10};
  std::size_t classes = 0;
  for (int k = 0; k < 9; ++k) {
    CHECK(hands_per_category[k] == expected[k]);
    CHECK(classes_per_category[k].size() == expected_classes[k]);
    classes += classes_per_category[k].size();
  }
  CHECK(classes == 7462);
  // The batch entry point agrees with the single one.
  std::vector<std::int32_t> out(2598960);
  const CardIssue issue = evaluate_batch(all.data(), out.size(), 5, wheel, out.data());
  CHECK(!issue && issue.item == -1);
  bool same = true;
  for (std::size_t i = 0; i < out.size(); ++i) same = same && Strength(out[i]) == evaluate5(&all[5 * i], wheel);
  CHECK(same);
}

static void test_exhaustive_three() {
  std::map<int, long> per_category;
  std::set<Strength> classes;
  for (int a = 0; a < 52; ++a)
    for (int b = a + 1; b < 52; ++b)
      for (int c = b + 1; c < 52; ++c) {
        const std::uint8_t h[3] = {std::uint8_t(a), std::uint8_t(b), std::uint8_t(c)};
        const Strength s = evaluate3(h);
        ++per_category[category_of(s)];
        classes.insert(s);
      }
  CHECK(per_category[kThreeOfAKind] == 52);
  CHECK(per_category[kOnePair] == 3744);
  CHECK(per_category[kHighCard] == 18304);
  CHECK(per_category.size() == 3);
  CHECK(classes.size() == 455);
}

static void test_rules_examples() {
  // RULES.md E5: the wheel and kickers.
  CHECK(eval({"As", "2d", "3c", "4h", "5s"}) < eval({"2s", "3d", "4c", "5h", "6s"}));
  CHECK(eval({"Kh", "Qd", "Jc", "Ts", "9h"}, Wheel::Second) < eval({"As", "2d", "3c", "4h", "5s"}, Wheel::Second));
  CHECK(eval({"As", "2d", "3c", "4h", "5s"}, Wheel::Second) < eval({"Ah", "Kd", "Qc", "Js", "Th"}, Wheel::Second));
  CHECK(eval({"Kh", "Kd", "5c", "4s", "2h"}) < eval({"Kc", "Ks", "Ah", "3d", "2c"}));
  CHECK(eval({"Ks", "Kd", "9h", "9c", "2s"}) < eval({"Kh", "Kc", "9s", "9d", "3h"}));
  CHECK(eval({"5h", "4h", "3h", "2h", "Ah"}) == make_strength(kStraightFlush, 5, 4, 3, 2, 1));
  CHECK(eval({"5h", "4h", "3h", "2h", "Ah"}, Wheel::Second) == make_strength(kStraightFlush, 14, 5, 4, 3, 2));
  CHECK(eval({"Kh", "Ah", "3h", "2h", "4h"}) == make_strength(kFlush, 14, 13, 4, 3, 2));  // K-A-2-3-4 no straight
  // RULES.md 2.5: front against middle on one scale (front < middle means legal).
  CHECK(eval({"Qs", "Qh", "7s"}) > eval({"Qd", "Qc", "6h", "5d", "4c"}));
  CHECK(eval({"Qs", "Qh", "7s"}) < eval({"Qd", "Qc", "9h", "8d", "2c"}));
  CHECK(eval({"Qs", "Qh", "7s"}) < eval({"Qd", "Qc", "7h", "5d", "3c"}));
  CHECK(eval({"As", "Kh", "Qs"}) < eval({"Ad", "Kc", "Qh", "3d", "2c"}));
  CHECK(eval({"As", "Kh", "Qs"}) > eval({"Ad", "Kc", "Jh", "3d", "2c"}));
  CHECK(eval({"7s", "7h", "7d"}) > eval({"5s", "5h", "5d", "Kc", "2c"}));
  CHECK(eval({"6s", "6h", "6d"}) < eval({"4s", "4h", "4d", "9c", "9d"}));
  CHECK(eval({"2s", "3s", "4s"}) == make_strength(kHighCard, 4, 3, 2));  // no 3-card straight or flush
}

static void test_batch_errors() {
  std::vector<std::uint8_t> rows = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 10};
  std::vector<std::int32_t> out(3);
  CardIssue issue = evaluate_batch(rows.data(), 3, 5, Wheel::Low, out.data());
  CHECK(issue.item == 2);
  CHECK(issue.kind == CardIssueKind::kDuplicate && issue.first_position == 0);
  CHECK(issue.position == 4);
  CHECK(issue.card == 10);
  rows[7] = 200;
  issue = evaluate_batch(rows.data(), 3, 5, Wheel::Low, out.data());
  CHECK(issue.item == 1);
  CHECK(issue.kind == CardIssueKind::kOutOfRange);
  CHECK(issue.position == 2);
  // Five of one rank (impossible in a real row) must not read outside the tables.
  std::vector<std::uint8_t> bad3 = {255, 254, 52};
  issue = evaluate_batch(bad3.data(), 1, 3, Wheel::Low, out.data());
  CHECK(issue.item == 0 && issue.kind == CardIssueKind::kOutOfRange);
  std::vector<std::uint8_t> same = {51, 51, 51, 51, 51};
  issue = evaluate_batch(same.data(), 1, 5, Wheel::Second, out.data());
  CHECK(issue.item == 0 && issue.kind == CardIssueKind::kDuplicate && issue.position == 1);
}

// 13 codes from "front / middle / back" text (tokens separated by spaces; slashes ignored).
static std::vector<std::uint8_t> hand_of(const char* text) {
  std::vector<std::uint8_t> out;
  std::string token;
  for (const char* p = text;; ++p) {
    if (*p == ' ' || *p == '/' || *p == '\0') {
      if (!token.empty()) {
        const int c = parse_card_token(token);
        CHECK(c >= 0);
        out.push_back(static_cast<std::uint8_t>(c));
        token.clear();
      }
      if (*p == '\0') break;
    } else {
      token += *p;
    }
  }
  CHECK(out.size() == 13);
  return out;
}

static RoundResult settle_texts(const std::vector<const char*>& texts, const RulesSpec& rules,
                                const std::vector<bool>& declared = {}) {
  std::vector<std::vector<std::uint8_t>> cards;
  for (const char* t : texts) cards.push_back(hand_of(t));
  PlayerInput in[kMaxPlayers];
  for (std::size_t p = 0; p < cards.size(); ++p) {
    in[p].cards = cards[p].data();
    in[p].declared = p < declared.size() && declared[p];
  }
  RoundResult result;
  const SettleError error = settle_round(in, static_cast<int>(cards.size()), rules, nullptr, &result);
  CHECK(!error && error.status == SettleStatus::kOk);
  return result;
}

static RulesSpec pagat_bonus() {
  RulesSpec r;
  r.royalty[kFront][kThreeOfAKind] = 3;
  r.royalty[kMiddle][kFullHouse] = 2;
  r.royalty[kMiddle][kFourOfAKind] = 4;
  r.royalty[kMiddle][kStraightFlush] = 5;
  r.royalty[kBack][kFourOfAKind] = 4;
  r.royalty[kBack][kStraightFlush] = 5;
  r.num_naturals = 4;
  r.natural_kind = {NaturalKind::kSixPairs, NaturalKind::kThreeStraights, NaturalKind::kThreeFlushes,
                    NaturalKind::kDragon};
  r.natural_units = {3, 3, 3, 13};
  return r;
}

static void test_settle_examples() {
  // RULES.md E1 under pagat (defaults) and pagat-bonus.
  const std::vector<const char*> e1 = {"6s 6h 6d / 4s 4h 4d 9s 9h / Ks Kh Kd 8s 8h",
                                       "Qs Qh 7s / Js Jh Jd 2s 2h / Ac 5s 5h 5d 5c"};
  CHECK(settle_texts(e1, RulesSpec{}).net[0] == -1);
  CHECK(settle_texts(e1, pagat_bonus()).net[0] == -3);
  // RULES.md E2 under pagat and the 1-6 method.
  const std::vector<const char*> e2 = {
      "Ts Th Qs / 6s 5s 4s 3s 2h / Ks Kh Kd 3h 3d", "Ac Kc 7s / Td Tc 9s 8s 6c / Jh Jd Jc 7h 7d",
      "Qd Qc 2c / 8h 7c 6d 5c 4c / 9h 9d 9c 8d 8c", "Qh Js 6h / 5h 5d 4h 4d 3c / As Ah Ad 2s 2d"};
  RoundResult r = settle_texts(e2, RulesSpec{});
  CHECK(r.net[0] == 3 && r.net[1] == -5 && r.net[2] == 3 && r.net[3] == -1);
  RulesSpec one_six;
  one_six.scoop_bonus = 3;
  one_six.foul_policy = FoulPolicy::kAsScooped;
  r = settle_texts(e2, one_six);
  CHECK(r.net[0] == 6 && r.net[1] == -8 && r.net[2] == 3 && r.net[3] == -1);
  // RULES.md E4: doubled scoops and fouls with royalties, suit tie-break.
  RulesSpec e4;
  e4.scoop_multiplier = 2;
  e4.royalties_in_multiplier = true;
  e4.foul_policy = FoulPolicy::kAsScooped;
  e4.royalty[kMiddle][kFullHouse] = 2;
  e4.royalty[kBack][kFourOfAKind] = 8;
  e4.suit_tiebreak = SuitTiebreak::kHighestCard;
  e4.suit_value = {1, 0, 2, 3};
  r = settle_texts({"Kc Ts 2c / 9h 8d 7h 6d 5d / Qd Js Tc 9d 8c", "Qh Qc 9c / 8s 8h 3s 3d 5s / Jh Jc 2h 2d 4c",
                    "Jd Kh Ks / 6c 9s Td Th Qs / 2s 3c 4d 5c 6s", "Kd 6h 5h / 7s 7d 7c 4s 4h / As Ah Ad Ac 3h"},
                   e4);
  CHECK(r.net[0] == -2 && r.net[1] == -4 && r.net[2] == -34 && r.net[3] == 40);
  CHECK(r.facts[2].foul && !r.facts[0].foul);
  // A declared dragon collects 13 from each opponent.
  r = settle_texts({"2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad", "3c 4d 6h / 8c 8d Th Ts 2s / Qc Qd 3h 3s 4c"},
                   pagat_bonus(), {true, false});
  CHECK(r.net[0] == 13 && r.pairs[0].decided_by == DecidedBy::kNatural);
}

static void test_naturals() {
  const RulesSpec rules = pagat_bonus();
  CHECK(detect_natural(hand_of("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac").data(), rules) == 0);
  CHECK(detect_natural(hand_of("Ac 2d 3h 9s Tc Jd Qh Ks 9c Td Jh Qs Kd").data(), rules) == 1);
  CHECK(detect_natural(hand_of("2h 7h 9h 3s 6s 8s Ts Qs 4d 5d Jd Kd 9d").data(), rules) == 2);
  CHECK(detect_natural(hand_of("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad").data(), rules) == 3);
  CHECK(detect_natural(hand_of("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Qs Ac").data(), rules) == -1);
  // Same kind: the tie-break keys order the hands.
  const auto low = hand_of("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac");
  const auto high = hand_of("3c 3d 5c 5d 7h 7s 9c 9d Jh Js Ah As Kc");
  CHECK(natural_key(NaturalKind::kSixPairs, high.data(), rules) > natural_key(NaturalKind::kSixPairs, low.data(), rules));
  const auto straights = hand_of("Ac 2d 3h 9s Tc Jd Qh Ks 9c Td Jh Qs Kd");
  CHECK(natural_key(NaturalKind::kThreeStraights, straights.data(), rules) != 0);
  const auto clean = hand_of("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
  RulesSpec extras;
  extras.num_naturals = 2;
  extras.natural_kind = {NaturalKind::kThreeStraightFlushes, NaturalKind::kCleanDragon};
  extras.natural_units = {1, 2};
  CHECK(detect_natural(clean.data(), extras) == 1);
  CHECK(holds_natural(NaturalKind::kThreeStraightFlushes, clean.data(), extras));
  CHECK(natural_key(NaturalKind::kThreeFlushes, clean.data(), rules) != 0);
}

// The three-flushes tie-break key (searched by suits in the core) against every split of the 13 cards:
// the greatest (back, middle, front) of the splits whose rows are each of one suit, the front's three
// ranks taken as the key takes them. Hands of each suit pattern, drawn at random, both suit rules.
static void test_three_flushes_key_against_every_split() {
  auto suited = [](const std::uint8_t* c, int n) {
    for (int k = 1; k < n; ++k) {
      if (c[k] % 4 != c[0] % 4) return false;
    }
    return true;
  };
  auto oracle = [&](const std::uint8_t* c, const RulesSpec& rules) {
    std::uint64_t best = 0;
    for (int a = 0; a < 13; ++a)
      for (int b = a + 1; b < 13; ++b)
        for (int d = b + 1; d < 13; ++d) {
          const std::uint8_t front[3] = {c[a], c[b], c[d]};
          std::uint8_t rest[10];
          int n = 0;
          for (int k = 0; k < 13; ++k) {
            if (k != a && k != b && k != d) rest[n++] = c[k];
          }
          for (unsigned mask = 0; mask < (1u << 10); ++mask) {
            if (detail::popcount32(mask) != 5) continue;
            std::uint8_t middle[5], back[5];
            int m = 0, k2 = 0;
            for (int k = 0; k < 10; ++k) {
              if (mask >> k & 1u) {
                middle[m++] = rest[k];
              } else {
                back[k2++] = rest[k];
              }
            }
            if (!suited(front, 3) || !suited(middle, 5) || !suited(back, 5)) continue;
            const int sf = front[0] % 4, sm = middle[0] % 4, sb = back[0] % 4;
            if (rules.three_flushes_distinct_suits && (sf == sm || sf == sb || sm == sb)) continue;
            const std::uint64_t key = static_cast<std::uint64_t>(evaluate5(back, rules.wheel)) << 36 |
                                      static_cast<std::uint64_t>(evaluate5(middle, rules.wheel)) << 12 |
                                      ((evaluate3(front) >> 8) & 0xFFFu);
            if (key > best) best = key;
          }
        }
    return best;
  };
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&](unsigned n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((state >> 33) % n);
  };
  // Suit patterns: {3, 5, 5}, {8, 5}, {10, 3}, {13}, and a non-flush {4, 4, 5}.
  const int patterns[5][4] = {{3, 5, 5, 0}, {8, 5, 0, 0}, {10, 3, 0, 0}, {13, 0, 0, 0}, {4, 4, 5, 0}};
  int nonzero = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int* counts = patterns[trial % 5];
    const unsigned shift = next(4);  // which suit gets which count
    std::uint8_t hand[13];
    int n = 0;
    for (unsigned s = 0; s < 4; ++s) {
      const unsigned suit = (s + shift) % 4;
      bool used[13] = {};
      for (int k = 0; k < counts[s]; ++k) {
        unsigned rank = next(13);
        while (used[rank]) rank = (rank + 1) % 13;
        used[rank] = true;
        hand[n++] = static_cast<std::uint8_t>(rank * 4 + suit);
      }
    }
    for (bool distinct : {false, true}) {
      RulesSpec rules = pagat_bonus();
      rules.three_flushes_distinct_suits = distinct;
      rules.wheel = trial % 2 == 0 ? Wheel::Low : Wheel::Second;
      const std::uint64_t expected = oracle(hand, rules);
      CHECK(natural_key(NaturalKind::kThreeFlushes, hand, rules) == expected);
      nonzero += expected != 0;
    }
  }
  CHECK(nonzero == 60);  // 12 hands a pattern: {3,5,5} under both suit rules, {8,5}, {10,3}, {13} under one
}

static void test_settle_batch_validation() {
  std::vector<std::uint8_t> rounds(2 * 2 * 13);
  for (std::size_t k = 0; k < 52; ++k) rounds[k] = static_cast<std::uint8_t>(k % 26);
  std::vector<std::int64_t> net(4);
  SettleError error = settle_batch(rounds.data(), 2, 2, RulesSpec{}, net.data());
  CHECK(!error);
  CHECK(net[0] + net[1] == 0 && net[2] + net[3] == 0);
  rounds[26 + 20] = 3;  // round 1, player 1, index 7 repeats card 3
  error = settle_batch(rounds.data(), 2, 2, RulesSpec{}, net.data());
  CHECK(error.status == SettleStatus::kBadCards && error.round == 1 && error.player == 1);
  CHECK(error.cards.item == 1 && error.cards.kind == CardIssueKind::kDuplicate && error.cards.position == 13 + 7 &&
        error.cards.first_position == 3);
  rounds[26 + 20] = 250;
  error = settle_batch(rounds.data(), 2, 2, RulesSpec{}, net.data());
  CHECK(error.status == SettleStatus::kBadCards && error.round == 1);
  CHECK(error.cards.item == 1 && error.cards.kind == CardIssueKind::kOutOfRange && error.cards.card == 250);
  error = settle_batch(rounds.data(), 1, 5, RulesSpec{}, net.data());
  CHECK(error.status == SettleStatus::kBadPlayerCount && error.round == -1);
  error = settle_batch(rounds.data(), 1, 1, RulesSpec{}, net.data());
  CHECK(error.status == SettleStatus::kBadPlayerCount);
}

static bool is_legal(const Arrangement& a, const RulesSpec& rules) {
  const Strength f = evaluate3(a.cards), m = evaluate5(a.cards + 3, rules.wheel), b = evaluate5(a.cards + 8, rules.wheel);
  return f == a.strength[0] && m == a.strength[1] && b == a.strength[2] && f < m && m <= b;
}

static bool same_cards(const std::uint8_t* x, const std::uint8_t* y) {
  std::vector<std::uint8_t> a(x, x + 13), b(y, y + 13);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// A model whose rows are all zero (every setting is worth 0), finished.
static ExpectedModel zero_model(Wheel wheel = Wheel::Low) {
  ExpectedModel model;
  model.wheel = wheel;
  for (int r = 0; r < 3; ++r) {
    RowModel& row = model.row[r];
    row.classes = row_classes(r, wheel);
    const std::size_t n = row.classes.size();
    row.win.assign(n, 0.0);
    row.loss.assign(n, 0.0);
    row.extra_win.assign(n, 0.0);
    row.extra_loss.assign(n, 0.0);
    row.always.assign(n, 0.0);
  }
  finish_model(model);
  return model;
}

static std::size_t class_of(const std::vector<Strength>& classes, Strength s) {
  const auto it = std::lower_bound(classes.begin(), classes.end(), s);
  CHECK(it != classes.end() && *it == s);
  return static_cast<std::size_t>(it - classes.begin());
}

static void test_arrange() {
  const RulesSpec rules;
  const auto hand = hand_of("As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d");
  Arrangement best;
  CHECK(!strongest_arrangement(hand.data(), rules, &best));
  CHECK(best.strength[2] == make_strength(kStraightFlush, 14, 13, 12, 11, 10));
  CHECK(best.strength[1] == make_strength(kFullHouse, 9, 2));
  CHECK(best.strength[0] == make_strength(kHighCard, 7, 5, 3));
  std::vector<Arrangement> all(kNumSplits);
  std::size_t n = 0, distinct = 0, front = 0;
  CHECK(!legal_arrangements(hand.data(), rules, false, false, all.data(), &n));
  CHECK(!legal_arrangements(hand.data(), rules, true, false, all.data(), &distinct));
  CHECK(!legal_arrangements(hand.data(), rules, true, true, all.data(), &front));
  CHECK(n > distinct && distinct > front && front > 0);
  bool ok = true;
  for (std::size_t k = 0; k < front; ++k) ok = ok && is_legal(all[k], rules) && same_cards(all[k].cards, hand.data());
  CHECK(ok);
  // A model where only a front of three deuces is worth anything: the one legal setting with it wins.
  const auto royals = hand_of("2c 2d 2h As Ks Qs Js Ts Ad Kd Qd Jd Td");
  ExpectedModel model = zero_model();
  CHECK(model.row[0].classes.size() == 455 && model.row[2].classes.size() == 7462);
  model.row[0].win[class_of(model.row[0].classes, make_strength(kThreeOfAKind, 2))] = 0.9;
  finish_model(model);
  CHECK(validate_model(model) == nullptr);
  Arrangement chosen;
  double ev = -1;
  CHECK(!expected_arrangement(royals.data(), rules, model, &chosen, &ev));
  CHECK(is_legal(chosen, rules));
  CHECK(chosen.strength[0] == make_strength(kThreeOfAKind, 2));
  CHECK(ev > 0.89 && ev < 0.91);
  // The batch entry point: legal settings of the same cards, and a bad hand reported by index.
  std::vector<std::uint8_t> hands;
  for (int h = 0; h < 4; ++h)
    for (int k = 0; k < 13; ++k) hands.push_back(static_cast<std::uint8_t>((h * 13 + k * 7) % 52));
  std::vector<std::uint8_t> out(hands.size());
  std::vector<double> evs(4);
  CHECK(!arrange_batch(hands.data(), 4, rules, &model, out.data(), evs.data()));
  CHECK(!arrange_batch(hands.data(), 4, rules, nullptr, out.data(), nullptr));
  for (std::size_t h = 0; h < 4; ++h) CHECK(same_cards(out.data() + 13 * h, hands.data() + 13 * h));
  hands[13 * 2 + 5] = hands[13 * 2];
  const CardIssue issue = arrange_batch(hands.data(), 4, rules, nullptr, out.data(), nullptr);
  CHECK(issue.item == 2 && issue.kind == CardIssueKind::kDuplicate && issue.position == 5 && issue.first_position == 0);
}

// ----- checked arithmetic -----

static void test_checked_math() {
  using detail::add_overflows;
  using detail::mul_overflows;
  using detail::sub_overflows;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::int64_t r = 0;
  CHECK(!add_overflows(kMax - 1, 1, &r) && r == kMax);
  CHECK(add_overflows(kMax, 1, &r));
  CHECK(!add_overflows(kMin, kMax, &r) && r == -1);
  CHECK(add_overflows(kMin, -1, &r));
  CHECK(!sub_overflows(0, kMax, &r) && r == -kMax);
  CHECK(sub_overflows(0, kMin, &r));
  CHECK(sub_overflows(kMax, -1, &r));
  CHECK(!sub_overflows(-1, kMax, &r) && r == kMin);
  CHECK(mul_overflows(kMin, -1, &r));
  CHECK(mul_overflows(-1, kMin, &r));
  CHECK(!mul_overflows(kMin, 1, &r) && r == kMin);
  CHECK(!mul_overflows(3037000499LL, 3037000499LL, &r) && r == 9223372030926249001LL);
  CHECK(mul_overflows(3037000500LL, 3037000500LL, &r));
  CHECK(mul_overflows(-3037000500LL, 3037000500LL, &r));
  CHECK(!mul_overflows(kMin / 2, 2, &r) && r == kMin);
  CHECK(mul_overflows(kMin / 2, -2, &r));
  CHECK(!mul_overflows(kMax / 2, -2, &r) && r == -(kMax - 1));
  // The portable versions agree with the compiler's on every pair of edge and ordinary values.
  const std::int64_t values[] = {0, 1, -1, 2, -2, 3, -3, 1000, -1000, 3037000499LL, -3037000499LL, 3037000500LL,
                                 -3037000500LL, 4294967296LL, -4294967296LL, kMax / 2, kMax / 2 + 1, kMin / 2,
                                 kMin / 2 - 1, kMax - 1, kMax, kMin + 1, kMin};
  bool agree = true;
  int overflows = 0;
  for (const std::int64_t a : values) {
    for (const std::int64_t b : values) {
      std::int64_t x = 0, y = 0;
      const bool ox = add_overflows(a, b, &x), oy = detail::portable_add_overflows(a, b, &y);
      agree = agree && ox == oy && (ox || x == y);
      const bool sx = sub_overflows(a, b, &x), sy = detail::portable_sub_overflows(a, b, &y);
      agree = agree && sx == sy && (sx || x == y);
      const bool mx = mul_overflows(a, b, &x), my = detail::portable_mul_overflows(a, b, &y);
      agree = agree && mx == my && (mx || x == y);
      overflows += ox + sx + mx;
    }
  }
  CHECK(agree);
  CHECK(overflows > 100);  // the table does exercise the overflow branches
  detail::CheckedMath math;
  CHECK(math.add(2, 3) == 5 && math.mul(-4, 5) == -20 && math.neg(7) == -7 && !math.overflow());
  (void)math.neg(kMin);
  CHECK(math.overflow());
}

// ----- rules -----

static void test_validate_rules() {
  CHECK(validate_rules(RulesSpec{}) == nullptr);
  CHECK(validate_rules(pagat_bonus()) == nullptr);
  auto bad = [](void (*edit)(RulesSpec&)) {
    RulesSpec r = pagat_bonus();
    edit(r);
    const char* field = validate_rules(r);
    return std::string(field == nullptr ? "(valid)" : field);
  };
  CHECK(bad([](RulesSpec& r) { r.wheel = static_cast<Wheel>(2); }) == "wheel");
  CHECK(bad([](RulesSpec& r) { r.suit_value = {0, 1, 1, 3}; }) == "suit_value");
  CHECK(bad([](RulesSpec& r) { r.suit_value = {0, 1, 2, 4}; }) == "suit_value");
  CHECK(bad([](RulesSpec& r) { r.suit_value = {3, 2, 1, 0}; }) == "(valid)");
  CHECK(bad([](RulesSpec& r) { r.overall_unit = -1; }) == "overall_unit");
  CHECK(bad([](RulesSpec& r) { r.overall_unit = kMaxUnits; }) == "(valid)");
  CHECK(bad([](RulesSpec& r) { r.overall_unit = kMaxUnits + 1; }) == "overall_unit");
  CHECK(bad([](RulesSpec& r) { r.scoop_bonus = 1001; }) == "scoop_bonus");
  CHECK(bad([](RulesSpec& r) { r.scoop_multiplier = 0; }) == "scoop_multiplier");
  CHECK(bad([](RulesSpec& r) { r.home_run_multiplier = 0; }) == "home_run_multiplier");
  CHECK(bad([](RulesSpec& r) { r.home_run_multiplier = 1000; }) == "(valid)");
  CHECK(bad([](RulesSpec& r) { r.home_run_min_opponents = 0; }) == "home_run_min_opponents");
  CHECK(bad([](RulesSpec& r) { r.home_run_min_opponents = 4; }) == "home_run_min_opponents");
  CHECK(bad([](RulesSpec& r) { r.royalty[kBack][kFlush] = -1; }) == "royalty");
  CHECK(bad([](RulesSpec& r) { r.royalty[kMiddle][kStraight] = 1001; }) == "royalty");
  CHECK(bad([](RulesSpec& r) { r.royalty[kFront][kOnePair] = 1; }) == "(valid)");
  CHECK(bad([](RulesSpec& r) { r.royalty[kFront][kTwoPair] = 1; }) == "royalty");
  CHECK(bad([](RulesSpec& r) { r.royalty[kFront][kStraight] = 2; }) == "royalty");
  CHECK(bad([](RulesSpec& r) { r.royalty[kFront][kRoyalFlushSlot] = 2; }) == "royalty");
  CHECK(bad([](RulesSpec& r) { r.royal_listed[kFront] = true; }) == "royal_listed");
  CHECK(bad([](RulesSpec& r) { r.royalty[kBack][kRoyalFlushSlot] = 9; }) == "royal_listed");
  CHECK(bad([](RulesSpec& r) {
          r.royalty[kBack][kRoyalFlushSlot] = 9;
          r.royal_listed[kBack] = true;
        }) == "(valid)");
  CHECK(bad([](RulesSpec& r) { r.num_naturals = -1; }) == "num_naturals");
  CHECK(bad([](RulesSpec& r) { r.num_naturals = kNumNaturalKinds + 1; }) == "num_naturals");
  CHECK(bad([](RulesSpec& r) { r.natural_kind[2] = NaturalKind::kSixPairs; }) == "natural_kind");
  CHECK(bad([](RulesSpec& r) { r.natural_kind[1] = static_cast<NaturalKind>(kNumNaturalKinds); }) == "natural_kind");
  CHECK(bad([](RulesSpec& r) { r.natural_units[3] = 0; }) == "natural_units");
  CHECK(bad([](RulesSpec& r) { r.natural_units[0] = 1001; }) == "natural_units");
  CHECK(bad([](RulesSpec& r) { r.natural_units[4] = 0; }) == "(valid)");  // not listed: never read
  CHECK(bad([](RulesSpec& r) { r.surrender_units = -5; }) == "surrender_units");
  // The first bad field in declaration order is named.
  CHECK(bad([](RulesSpec& r) {
          r.surrender_units = -5;
          r.scoop_bonus = -1;
        }) == "scoop_bonus");
}

static void test_royalty_and_wheel() {
  RulesSpec r;
  r.royalty[kBack][kStraightFlush] = 5;
  const Strength royal = make_strength(kStraightFlush, 14, 13, 12, 11, 10);
  const Strength king_high = make_strength(kStraightFlush, 13, 12, 11, 10, 9);
  CHECK(royalty_of(r, kBack, royal) == 5 && royalty_of(r, kBack, king_high) == 5);
  r.royalty[kBack][kRoyalFlushSlot] = 0;
  r.royal_listed[kBack] = true;  // listed at 0: a royal flush earns nothing
  CHECK(royalty_of(r, kBack, royal) == 0 && royalty_of(r, kBack, king_high) == 5);
  r.royalty[kBack][kRoyalFlushSlot] = 20;
  CHECK(royalty_of(r, kBack, royal) == 20);
  CHECK(royalty_of(r, kMiddle, royal) == 0);
  // The second-highest wheel straight flush is not royal.
  CHECK(royalty_of(r, kBack, make_strength(kStraightFlush, 14, 5, 4, 3, 2)) == 5);
  CHECK(royalty_of(r, 3, royal) == 0 && royalty_of(r, -1, royal) == 0);
  CHECK(royalty_of(r, kBack, 0xFFFFFFFFu) == 0);
  const Strength wheel_low = make_strength(kStraight, 5, 4, 3, 2, 1);
  const Strength wheel_second = make_strength(kStraight, 14, 5, 4, 3, 2);
  CHECK(encode_wheel(wheel_low, Wheel::Second) == wheel_second);
  CHECK(encode_wheel(wheel_low, Wheel::Low) == wheel_low);
  CHECK(encode_wheel(make_strength(kStraightFlush, 5, 4, 3, 2, 1), Wheel::Second) ==
        make_strength(kStraightFlush, 14, 5, 4, 3, 2));
  CHECK(encode_wheel(make_strength(kStraight, 6, 5, 4, 3, 2), Wheel::Second) == make_strength(kStraight, 6, 5, 4, 3, 2));
  CHECK(encode_wheel(make_strength(kOnePair, 5, 4, 3, 2), Wheel::Second) == make_strength(kOnePair, 5, 4, 3, 2));
  // It maps the evaluator's low classes exactly onto its second classes.
  std::vector<Strength> mapped;
  for (const Strength s : row_classes(kBack, Wheel::Low)) mapped.push_back(encode_wheel(s, Wheel::Second));
  std::sort(mapped.begin(), mapped.end());
  CHECK(mapped == row_classes(kBack, Wheel::Second));
  CHECK(eval({"As", "2d", "3c", "4h", "5s"}, Wheel::Second) == encode_wheel(eval({"As", "2d", "3c", "4h", "5s"}), Wheel::Second));
}

// ----- settlement: stakes, caps, overflow, foul reasons -----

static PlayerFacts facts_of(const char* text, const RulesSpec& rules) {
  const auto cards = hand_of(text);
  PlayerInput in;
  in.cards = cards.data();
  PlayerFacts f;
  const SettleError error = player_facts(in, 0, rules, &f);
  CHECK(!error);
  return f;
}

static void test_foul_reasons() {
  const RulesSpec loose;
  RulesSpec strict;
  strict.strict_middle = true;
  PlayerFacts f = facts_of("As Ah Kd / Qs Qh 3c 4d 5h / Ks Kh Kc 2d 2h", loose);
  CHECK(f.foul && f.foul_reasons == kFoulFrontBeatsMiddle);
  f = facts_of("2c 3d 5h / Ks Kh Kc 2d 2h / As Ad 7c 8d 9h", loose);
  CHECK(f.foul && f.foul_reasons == kFoulMiddleBeatsBack);
  f = facts_of("Qs Qh Qd / Jc Jd 3c 4d 5h / As Kd 7c 8d 9h", loose);
  CHECK(f.foul && f.foul_reasons == (kFoulFrontBeatsMiddle | kFoulMiddleBeatsBack));
  const char* equal = "2c 3d 5h / As Kd Qc Jh 9s / Ah Kc Qd Js 9h";
  f = facts_of(equal, loose);
  CHECK(!f.foul && f.foul_reasons == 0);
  f = facts_of(equal, strict);
  CHECK(f.foul && f.foul_reasons == kFoulMiddleEqualsBack);
  f = facts_of("2c 3d 5h / 4s 4h 6c 7d 8h / As Ad Kc Kd 9h", strict);
  CHECK(!f.foul && f.foul_reasons == 0);
  // Over random settings, each bit is exactly its comparison and foul is any bit.
  std::uint8_t deck[52];
  for (int k = 0; k < 52; ++k) deck[k] = static_cast<std::uint8_t>(k);
  std::uint64_t state = 12345;
  int fouls = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    for (int k = 51; k > 0; --k) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      std::swap(deck[k], deck[static_cast<int>((state >> 33) % static_cast<std::uint64_t>(k + 1))]);
    }
    PlayerInput p;
    p.cards = deck;
    for (const RulesSpec* r : {&loose, static_cast<const RulesSpec*>(&strict)}) {
      CHECK(!player_facts(p, 0, *r, &f));
      const Strength fr = f.strength[0], mi = f.strength[1], ba = f.strength[2];
      const unsigned want = (fr > mi ? 1u : 0u) | (mi > ba ? 2u : 0u) | (r->strict_middle && mi == ba ? 4u : 0u);
      CHECK(f.foul_reasons == want && f.foul == (want != 0));
      fouls += f.foul;
    }
  }
  CHECK(fouls > 1000 && fouls < 6000);
  // A declared natural has no setting and is never foul-checked.
  const auto dragon = hand_of("Ks Qs Js 2c 3d 4h 5s 6c 7d 8h 9s Tc Ad");
  PlayerInput in;
  in.cards = dragon.data();
  in.declared = true;
  CHECK(!player_facts(in, 0, pagat_bonus(), &f));
  CHECK(!f.has_setting && !f.foul && f.foul_reasons == 0 && f.natural == 3);
}

static void test_stakes() {
  const auto a = hand_of("6s 6h 6d / 4s 4h 4d 9s 9h / Ks Kh Kd 8s 8h");
  const auto b = hand_of("Qs Qh 7s / Js Jh Jd 2s 2h / Ac 5s 5h 5d 5c");
  const auto c = hand_of("2c 3c 4c / 6c 7c 8c Tc 3d / Qc Qd Th Td 9c");
  PlayerInput in[3];
  in[0].cards = a.data();
  in[1].cards = b.data();
  in[2].cards = c.data();
  RoundResult plain, staked;
  CHECK(!settle_round(in, 3, RulesSpec{}, nullptr, &plain));
  const std::int64_t stakes[9] = {0, 2, 0, 2, 7, 5, 0, 5, 0};
  CHECK(!settle_round(in, 3, RulesSpec{}, stakes, &staked));
  CHECK(staked.pairs[0].stake == 2 && staked.pairs[0].units == 2 * plain.pairs[0].units);
  CHECK(staked.pairs[1].stake == 0 && staked.pairs[1].units == 0);
  CHECK(staked.pairs[2].stake == 5 && staked.pairs[2].units == 5 * plain.pairs[2].units);
  CHECK(plain.pairs[0].units != 0 && plain.pairs[2].units != 0);
  auto stake_error = [&](std::int64_t* m) {
    RoundResult r;
    return settle_round(in, 3, RulesSpec{}, m, &r);
  };
  std::int64_t m[9];
  std::memcpy(m, stakes, sizeof m);
  m[3] = -2;  // [1][0]
  SettleError e = stake_error(m);
  CHECK(e.status == SettleStatus::kBadStake && e.player == 1 && e.other == 0);
  std::memcpy(m, stakes, sizeof m);
  m[2] = kMaxStake + 1;  // [0][2]
  m[6] = kMaxStake + 1;
  e = stake_error(m);
  CHECK(e.status == SettleStatus::kBadStake && e.player == 0 && e.other == 2);
  m[2] = m[6] = kMaxStake;
  CHECK(!stake_error(m));
  std::memcpy(m, stakes, sizeof m);
  m[5] = 6;  // [1][2] = 6, [2][1] = 5
  e = stake_error(m);
  CHECK(e.status == SettleStatus::kBadStake && e.player == 1 && e.other == 2);
  std::memcpy(m, stakes, sizeof m);
  m[8] = -1;  // the diagonal is not read, but it is still checked
  e = stake_error(m);
  CHECK(e.status == SettleStatus::kBadStake && e.player == 2 && e.other == 2);
}

// Every knob at its cap and the greatest stake: the total is exact (no legal input overflows).
static void test_caps() {
  RulesSpec r;
  r.scoop_multiplier = kMaxUnits;
  r.royalties_in_multiplier = true;
  r.overall_unit = kMaxUnits;
  r.scoop_bonus = kMaxUnits;
  r.home_run_multiplier = kMaxUnits;
  r.home_run_min_opponents = 1;
  r.royalty_add = true;
  r.royalty[kFront][kThreeOfAKind] = kMaxUnits;
  r.royalty[kMiddle][kFourOfAKind] = kMaxUnits;
  r.royalty[kBack][kStraightFlush] = kMaxUnits;
  CHECK(validate_rules(r) == nullptr);
  const auto a = hand_of("2c 2d 2h / 3c 3d 3h 3s 4c / 9s Ts Js Qs Ks");
  const auto b = hand_of("5c 6d 8h / 7c 7d Tc Jd Qh / 8c 8d 9c 9d Kh");
  PlayerInput in[2];
  in[0].cards = a.data();
  in[1].cards = b.data();
  const std::int64_t stakes[4] = {0, kMaxStake, kMaxStake, 0};
  RoundResult result;
  CHECK(!settle_round(in, 2, r, stakes, &result));
  const PairResult& p = result.pairs[0];
  // Rows 3, royalties 3 x 1000 (add: each won row 1 + 1000), overall 1000, scoop bonus 1000, all x 1000.
  CHECK(p.row_units == 3 && p.royalty_units == 3000 && p.overall_units == 1000 && p.scoop_bonus_units == 1000);
  CHECK(p.multiplier == 1000 && p.subtotal == 1000 * (3 + 1000 + 1000) + 1000 * 3000);
  CHECK(p.home_run == 1000 && result.home_run[0]);
  CHECK(result.net[0] == 5'003'000LL * 1'000'000LL * 1000LL && result.net[1] == -result.net[0]);
}

#ifdef NDEBUG
// Beyond the caps (only reachable with asserts off): an amount that leaves int64 is reported, never wrapped.
static void test_overflow_beyond_caps() {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const auto a = hand_of("2c 2d 2h / 3c 3d 3h 3s 4c / 9s Ts Js Qs Ks");
  const auto b = hand_of("5c 6d 8h / 7c 7d Tc Jd Qh / 8c 8d 9c 9d Kh");
  const auto c = hand_of("Jc Qc Kc / Ac Ad Ah 4d 4h / 6c 6h 6s 7h 7s");
  PlayerInput in[3];
  in[0].cards = a.data();
  in[1].cards = b.data();
  in[2].cards = c.data();
  RoundResult result;
  RulesSpec r;
  r.scoop_multiplier = kMax / 2;  // 3 rows x (max / 2) overflows the subtotal
  SettleError e = settle_round(in, 2, r, nullptr, &result);
  CHECK(e.status == SettleStatus::kOverflow && e.player == 0 && e.other == 1);
  r = RulesSpec{};
  r.home_run_multiplier = kMax / 2;  // subtotal 3 x home run
  r.home_run_min_opponents = 1;
  e = settle_round(in, 2, r, nullptr, &result);
  CHECK(e.status == SettleStatus::kOverflow && e.player == 0 && e.other == 1);
  r = RulesSpec{};
  r.royalty[kBack][kStraightFlush] = kMax / 3 * 2;  // each pair fits; player 0's net of two does not
  e = settle_round(in, 3, r, nullptr, &result);
  CHECK(e.status == SettleStatus::kOverflow && e.player == 0 && e.other == -1);
  r = RulesSpec{};
  r.num_naturals = 1;
  r.natural_kind[0] = NaturalKind::kDragon;
  r.natural_units[0] = std::numeric_limits<std::int64_t>::min();  // its negation does not exist
  const auto dragon = hand_of("2s 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
  PlayerInput pair[2];
  pair[0].cards = b.data();
  pair[1].cards = dragon.data();
  pair[1].declared = true;
  e = settle_round(pair, 2, r, nullptr, &result);
  CHECK(e.status == SettleStatus::kOverflow && e.player == 0 && e.other == 1);
  std::vector<std::uint8_t> rounds(a);
  rounds.insert(rounds.end(), b.begin(), b.end());
  std::vector<std::int64_t> net(2);
  r = RulesSpec{};
  r.scoop_multiplier = kMax / 2;
  e = settle_batch(rounds.data(), 1, 2, r, net.data());
  CHECK(e.status == SettleStatus::kOverflow && e.round == 0 && e.player == 0 && e.other == 1);
}
#endif

static void test_settle_round_validation() {
  const auto a = hand_of("6s 6h 6d / 4s 4h 4d 9s 9h / Ks Kh Kd 8s 8h");
  auto b = hand_of("Qs Qh 7s / Js Jh Jd 2s 2h / Ac 5s 5h 5d 5c");
  PlayerInput in[2];
  in[0].cards = a.data();
  in[1].cards = b.data();
  RoundResult result;
  b[4] = a[10];  // Ks held by both
  SettleError e = settle_round(in, 2, RulesSpec{}, nullptr, &result);
  CHECK(e.status == SettleStatus::kBadCards && e.player == 1 && e.cards.kind == CardIssueKind::kDuplicate);
  CHECK(e.cards.position == 13 + 4 && e.cards.first_position == 10 && e.cards.card == a[10]);
  b[4] = 77;
  e = settle_round(in, 2, RulesSpec{}, nullptr, &result);
  CHECK(e.status == SettleStatus::kBadCards && e.player == 1 && e.cards.kind == CardIssueKind::kOutOfRange &&
        e.cards.position == 17 && e.cards.card == 77);
  e = settle_round(in, 1, RulesSpec{}, nullptr, &result);
  CHECK(e.status == SettleStatus::kBadPlayerCount);
  e = settle_round(in, 5, RulesSpec{}, nullptr, &result);
  CHECK(e.status == SettleStatus::kBadPlayerCount);
  PlayerFacts f;
  e = player_facts(in[1], 3, RulesSpec{}, &f);
  CHECK(e.status == SettleStatus::kBadCards && e.player == 3 && e.cards.position == 4 && e.cards.card == 77);
}

// ----- naturals -----

static void test_held_naturals() {
  const RulesSpec rules;  // no naturals listed: held_naturals still sees every kind
  auto bit = [](NaturalKind k) { return std::uint32_t{1} << static_cast<int>(k); };
  const auto six_pairs = hand_of("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac");
  CHECK(held_naturals(six_pairs.data(), rules) == bit(NaturalKind::kSixPairs));
  const auto dragon = hand_of("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad");
  CHECK(held_naturals(dragon.data(), rules) == (bit(NaturalKind::kDragon) | bit(NaturalKind::kThreeStraights)));
  const auto clean = hand_of("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As");
  CHECK(held_naturals(clean.data(), rules) ==
        (bit(NaturalKind::kThreeStraights) | bit(NaturalKind::kThreeFlushes) | bit(NaturalKind::kDragon) |
         bit(NaturalKind::kCleanDragon) | bit(NaturalKind::kAllOneColour) | bit(NaturalKind::kThreeStraightFlushes)));
  // Four deuces count as two pairs only under quads_as_two_pairs.
  const auto quads = hand_of("2c 2d 2h 2s 5c 5d 7h 7s 9c 9d Jh Js Ac");
  CHECK(held_naturals(quads.data(), rules) == bit(NaturalKind::kSixPairs));
  RulesSpec strict_pairs;
  strict_pairs.quads_as_two_pairs = false;
  CHECK(held_naturals(quads.data(), strict_pairs) == 0);
  // Every bit agrees with holds_natural, for these hands and knobs.
  for (const auto* h : {&six_pairs, &dragon, &clean, &quads}) {
    for (const RulesSpec* r : {&rules, static_cast<const RulesSpec*>(&strict_pairs)}) {
      std::uint32_t expected = 0;
      for (int k = 0; k < kNumNaturalKinds; ++k) {
        if (holds_natural(static_cast<NaturalKind>(k), h->data(), *r)) expected |= std::uint32_t{1} << k;
      }
      CHECK(held_naturals(h->data(), *r) == expected);
    }
  }
}

// The knobs of what counts, and the kinds of real tables.
static void test_real_table_naturals() {
  const RulesSpec rules;
  auto holds = [](NaturalKind k, const char* text, const RulesSpec& r) { return holds_natural(k, hand_of(text).data(), r); };
  auto key = [](NaturalKind k, const char* text, const RulesSpec& r) { return natural_key(k, hand_of(text).data(), r); };
  auto with = [](void (*set)(RulesSpec&)) {
    RulesSpec r;
    set(r);
    return r;
  };
  const RulesSpec no_a23 = with([](RulesSpec& r) { r.three_straights_front_a23 = false; });
  const RulesSpec no_qka = with([](RulesSpec& r) { r.three_straights_front_qka = false; });
  const RulesSpec no_wheel = with([](RulesSpec& r) { r.three_straights_wheel = false; });
  const RulesSpec distinct = with([](RulesSpec& r) { r.three_flushes_distinct_suits = true; });
  const RulesSpec no_quad_trips = with([](RulesSpec& r) { r.quads_as_trips = false; });
  const RulesSpec no_quad_pairs = with([](RulesSpec& r) { r.quads_as_two_pairs = false; });
  // Three straights whose only split has A-2-3, Q-K-A or the wheel.
  const char* a23 = "Ac 2d 3h 9s Tc Jd Qh Ks 9c Td Jh Qs Kd";
  const char* qka = "Qc Kd Ah 5s 6c 7d 8h 9s 5c 6d 7h 8s 9c";
  const char* wheel = "Ac 2d 3h 4s 5c 7d 8h 9s 9c Td Jh Qs Kd";
  for (const char* h : {a23, qka, wheel}) CHECK(holds(NaturalKind::kThreeStraights, h, rules));
  CHECK(!holds(NaturalKind::kThreeStraights, a23, no_a23) && holds(NaturalKind::kThreeStraights, a23, no_qka));
  CHECK(!holds(NaturalKind::kThreeStraights, qka, no_qka) && holds(NaturalKind::kThreeStraights, qka, no_wheel));
  CHECK(!holds(NaturalKind::kThreeStraights, wheel, no_wheel) && holds(NaturalKind::kThreeStraights, wheel, no_a23));
  CHECK(key(NaturalKind::kThreeStraights, wheel, no_wheel) == 0);
  // The same for three straight flushes, and three suits only when they must differ.
  const char* sf_wheel = "Ac 2c 3c 4c 5c 7d 8d 9d 9h Th Jh Qh Kh";
  CHECK(holds(NaturalKind::kThreeStraightFlushes, sf_wheel, rules));
  CHECK(holds(NaturalKind::kThreeStraightFlushes, sf_wheel, distinct));
  CHECK(!holds(NaturalKind::kThreeStraightFlushes, sf_wheel, no_wheel));
  const char* sf_two_suits = "Ac 2c 3c 4c 5c 7d 8d 9d 9c Tc Jc Qc Kc";
  CHECK(holds(NaturalKind::kThreeStraightFlushes, sf_two_suits, rules));
  CHECK(!holds(NaturalKind::kThreeStraightFlushes, sf_two_suits, distinct));
  const char* three_suits = "2h 7h 9h 3s 6s 8s Ts Qs 4d 5d Jd Kd 9d";
  const char* eight_five = "2h 3h 4h 5h 7h 9h Jh Kh 2s 4s 6s 8s Ts";
  CHECK(holds(NaturalKind::kThreeFlushes, three_suits, distinct) && holds(NaturalKind::kThreeFlushes, eight_five, rules));
  CHECK(!holds(NaturalKind::kThreeFlushes, eight_five, distinct));
  CHECK(key(NaturalKind::kThreeFlushes, three_suits, distinct) ==
        key(NaturalKind::kThreeFlushes, three_suits, rules));
  // A four of a kind among four trips only under quads_as_trips.
  const char* quad_trips = "2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9c 9d 9h";
  CHECK(holds(NaturalKind::kFourTrips, quad_trips, rules) && !holds(NaturalKind::kFourTrips, quad_trips, no_quad_trips));
  CHECK(holds(NaturalKind::kFourTrips, "2c 2d 2h 5c 5d 5h 7h 7s 7c 9c 9d 9h Ks", no_quad_trips));
  // Five consecutive pairs: the ace high only; trips and quads count as a pair of the run.
  CHECK(holds(NaturalKind::kFiveConsecutivePairs, "3c 3d 4h 4s 5c 5d 6h 6s 7c 7d 9h Js Ac", rules));
  CHECK(holds(NaturalKind::kFiveConsecutivePairs, "3c 3d 3h 4s 4c 4d 4h 5s 5c 6d 6h 7s 7c", no_quad_pairs));
  CHECK(!holds(NaturalKind::kFiveConsecutivePairs, "Ac Ad 2h 2s 3c 3d 4h 4s 5c 5d 9h Js Kc", rules));
  const char* top_run = "Tc Td Jh Js Qc Qd Kh Ks Ac Ad 2h 5s 9c";
  CHECK(key(NaturalKind::kFiveConsecutivePairs, top_run, rules) == 14);
  CHECK(key(NaturalKind::kFiveConsecutivePairs, "3c 3d 4h 4s 5c 5d 6h 6s 7c 7d 8h 8s Ac", rules) == 8);
  // Two trips, three pairs and a single; a four of a kind read as trips and the single, or as two pairs.
  CHECK(holds(NaturalKind::kTwoTripsThreePairs, "2c 2d 2h 5c 5d 5h 7h 7s 9c 9d Jh Js Ac", rules));
  const char* quad_as_trips = "2c 2d 2h 2s 5c 5d 5h 7h 7s 9c 9d Jh Js";
  CHECK(holds(NaturalKind::kTwoTripsThreePairs, quad_as_trips, rules));
  CHECK(!holds(NaturalKind::kTwoTripsThreePairs, quad_as_trips, no_quad_trips));
  const char* quad_as_pairs = "2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9d 9h Js";
  CHECK(holds(NaturalKind::kTwoTripsThreePairs, quad_as_pairs, no_quad_trips));
  CHECK(!holds(NaturalKind::kTwoTripsThreePairs, quad_as_pairs, no_quad_pairs));
  CHECK(!holds(NaturalKind::kTwoTripsThreePairs, "2c 2d 2h 5c 5d 5h 7h 7s 9c 9d Jh Js Jc", rules));
  // One card of the other colour; twelve cards ten to ace.
  CHECK(holds(NaturalKind::kOneRed, "2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ah", rules));
  CHECK(!holds(NaturalKind::kOneBlack, "2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ah", rules));
  CHECK(holds(NaturalKind::kOneBlack, "2h 3h 4h 5h 6h 7d 8d 9d Td Jd Qd Kd As", rules));
  CHECK(!holds(NaturalKind::kOneRed, "2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ac", rules));
  CHECK(holds(NaturalKind::kTwelveRoyalsTen, "Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd Kh 2s", rules));
  CHECK(!holds(NaturalKind::kTwelveRoyalsTen, "Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd 3h 2s", rules));
  CHECK(holds(NaturalKind::kTwelveRoyalsTen, "Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Kc Ah", rules));
  // natural_tiebreak "none": every key is 0, so two naturals of one kind tie.
  RulesSpec none;
  none.natural_tiebreak = NaturalTiebreak::kNone;
  CHECK(key(NaturalKind::kSixPairs, "3c 3d 5c 5d 7h 7s 9c 9d Jh Js Ah As Kc", none) == 0);
  CHECK(key(NaturalKind::kThreeStraights, a23, none) == 0);
  CHECK(natural_name(NaturalKind::kTwelveRoyalsTen) == std::string("twelve_royals_ten"));
}

// ----- the expected model -----

// Field tables holding every class of each row (low encoding, strongest first so that building has to
// sort), with the given probabilities and zero elsewhere.
static FieldTables synthetic_field(const std::vector<std::pair<Strength, double>>& front,
                                   const std::vector<std::pair<Strength, double>>& middle,
                                   const std::vector<std::pair<Strength, double>>& back) {
  FieldTables t;
  const std::vector<std::pair<Strength, double>>* given[3] = {&front, &middle, &back};
  for (int r = 0; r < 3; ++r) {
    const std::vector<Strength>& classes = row_classes(r, Wheel::Low);
    t.strengths[r].assign(classes.rbegin(), classes.rend());
    t.prob[r].assign(classes.size(), 0.0);
    for (const auto& [s, p] : *given[r]) {
      const auto it = std::find(t.strengths[r].begin(), t.strengths[r].end(), s);
      CHECK(it != t.strengths[r].end());
      t.prob[r][static_cast<std::size_t>(it - t.strengths[r].begin())] = p;
    }
  }
  return t;
}

struct ModelValues {
  double win, loss, extra_win, extra_loss, always;
};

static ModelValues values_at(const ExpectedModel& m, int row, Strength s) {
  const RowModel& r = m.row[row];
  const std::size_t k = class_of(r.classes, s);
  return ModelValues{r.win[k], r.loss[k], r.extra_win[k], r.extra_loss[k], r.always[k]};
}

static bool near(double a, double b) { return std::fabs(a - b) < 1e-12; }

static void test_build_expected_model() {
  const Strength f_low = eval({"7s", "5h", "3c"}), f_pair = eval({"9s", "9h", "2c"}), f_trips = eval({"Qs", "Qh", "Qd"});
  const Strength m_wheel = eval({"As", "2d", "3c", "4h", "5s"}), m_six = eval({"2s", "3d", "4c", "5h", "6s"});
  const Strength b_flush = eval({"As", "Ks", "Qs", "Js", "9s"});
  const FieldTables field = synthetic_field({{f_low, 0.25}, {f_pair, 0.5}, {f_trips, 0.25}},
                                            {{m_wheel, 0.5}, {m_six, 0.5}}, {{b_flush, 1.0}});
  // pagat-bonus: the front trips pay 3 (a won row is worth 3 instead of 1), no suit tie-break.
  RulesSpec rules = pagat_bonus();
  ExpectedModel m;
  CHECK(build_expected_model(field, rules, &m) == nullptr);
  CHECK(validate_model(m) == nullptr);
  ModelValues v = values_at(m, kFront, f_pair);
  CHECK(near(v.win, 0.25) && near(v.loss, 0.25) && v.extra_win == 0 && near(v.extra_loss, 0.25 * 2) && v.always == 0);
  v = values_at(m, kFront, f_trips);
  CHECK(near(v.win, 0.75) && near(v.loss, 0) && v.extra_win == 2 && near(v.extra_loss, 0));
  v = values_at(m, kFront, row_classes(kFront, Wheel::Low).front());
  CHECK(near(v.win, 0) && near(v.loss, 1) && near(v.extra_loss, 0.5));
  v = values_at(m, kMiddle, m_six);
  CHECK(near(v.win, 0.5) && near(v.loss, 0));
  v = values_at(m, kBack, b_flush);
  CHECK(near(v.win, 0) && near(v.loss, 0));
  v = values_at(m, kBack, row_classes(kBack, Wheel::Low).back());
  CHECK(near(v.win, 1) && near(v.loss, 0));
  CHECK(m.overall_unit == 0 && m.scoop_bonus == 0 && m.scoop_multiplier == 1 && !m.royalties_in_multiplier);
  // Expected units of a setting: sum over rows of win - loss (no pair terms here) and royalties.
  double ev = 0;
  const Strength setting[3] = {f_trips, m_six, eval({"2s", "2h", "2d", "3c", "3d"})};
  CHECK(expected_units(setting, m, &ev));
  CHECK(near(ev, (0.75 + 0.75 * 2) + 0.5 + 1));
  // A royal flush back also earns its royalty (5: one unit and 4 more) against a field it always beats.
  const Strength royal_back[3] = {f_trips, m_six, row_classes(kBack, Wheel::Low).back()};
  CHECK(expected_units(royal_back, m, &ev));
  CHECK(near(ev, (0.75 + 0.75 * 2) + 0.5 + 1 + 4));
  // The middle_upto bounds are running maxima / minima over the middle classes.
  const std::size_t six = class_of(m.row[kMiddle].classes, m_six);
  CHECK(m.middle_upto[0][six] == 0.5 && m.middle_upto[1][six] == 0);
  CHECK(m.middle_upto[0].back() == 1 && m.middle_upto[1].front() == 1);

  // Suit tie-break (ties split evenly) and royalty_mode "add" (a won trips front adds 3), pair terms.
  rules.suit_tiebreak = SuitTiebreak::kHighestCard;
  rules.royalty_add = true;
  rules.scoop_multiplier = 2;
  rules.overall_unit = 1;
  rules.royalties_in_multiplier = true;
  CHECK(build_expected_model(field, rules, &m) == nullptr);
  v = values_at(m, kFront, f_pair);
  CHECK(near(v.win, 0.5) && near(v.loss, 0.5) && near(v.extra_loss, 0.25 * 3));
  v = values_at(m, kFront, f_trips);
  CHECK(near(v.win, 0.875) && near(v.loss, 0.125) && v.extra_win == 3 && near(v.extra_loss, 0.375));
  v = values_at(m, kBack, b_flush);
  CHECK(near(v.win, 0.5) && near(v.loss, 0.5));
  CHECK(m.overall_unit == 1 && m.scoop_multiplier == 2 && m.royalties_in_multiplier);

  // royalty_condition "always": the royalty less the field's mean royalty (0.25 x 3), whatever the result.
  rules = pagat_bonus();
  rules.royalty_always = true;
  CHECK(build_expected_model(field, rules, &m) == nullptr);
  v = values_at(m, kFront, f_trips);
  CHECK(near(v.always, 3 - 0.75) && v.extra_win == 0 && v.extra_loss == 0);
  v = values_at(m, kFront, f_pair);
  CHECK(near(v.always, -0.75));

  // wheel "second": the field's low-encoded wheel becomes 14,5,4,3,2 and now beats the six-high straight.
  rules = pagat_bonus();
  rules.wheel = Wheel::Second;
  CHECK(build_expected_model(field, rules, &m) == nullptr);
  CHECK(m.wheel == Wheel::Second && validate_model(m) == nullptr);
  const Strength m_wheel_second = encode_wheel(m_wheel, Wheel::Second);
  v = values_at(m, kMiddle, m_six);
  CHECK(near(v.win, 0) && near(v.loss, 0.5));
  v = values_at(m, kMiddle, m_wheel_second);
  CHECK(near(v.win, 0.5) && near(v.loss, 0));
  const Strength low_wheel_setting[3] = {f_pair, m_wheel, b_flush};
  CHECK(!expected_units(low_wheel_setting, m, &ev));  // not a class under this wheel

  // Bad input is reported, never indexed.
  rules = pagat_bonus();
  auto error_of = [&](FieldTables t) {
    ExpectedModel out;
    const char* e = build_expected_model(t, rules, &out);
    return std::string(e == nullptr ? "(ok)" : e);
  };
  FieldTables t = field;
  t.prob[kMiddle].pop_back();
  CHECK(error_of(t) == "middle_prob: not as long as middle_strengths");
  t = field;
  t.prob[kFront][3] = -0.1;
  CHECK(error_of(t) == "front_prob: a probability is negative or not finite");
  t = field;
  t.prob[kBack][0] = std::nan("");
  CHECK(error_of(t) == "back_prob: a probability is negative or not finite");
  t = field;
  t.prob[kBack][0] = std::numeric_limits<double>::infinity();
  CHECK(error_of(t) == "back_prob: a probability is negative or not finite");
  t = field;
  t.strengths[kBack].pop_back();
  t.prob[kBack].pop_back();
  CHECK(error_of(t) == "back_strengths: not every back strength exactly once");
  t = field;
  t.strengths[kFront][0] = t.strengths[kFront][1];
  CHECK(error_of(t) == "front_strengths: not every front strength exactly once");
  t = field;
  t.strengths[kMiddle][5] = make_strength(kHighCard, 15);
  CHECK(error_of(t) == "middle_strengths: not every middle strength exactly once");
  t = FieldTables{};
  CHECK(error_of(t) == "front_strengths: not every front strength exactly once");
  rules.overall_unit = -3;
  CHECK(error_of(field) == "overall_unit");
}

static void test_validate_model() {
  ExpectedModel m = zero_model();
  CHECK(validate_model(m) == nullptr);
  auto error_of = [](ExpectedModel x) {
    const char* e = validate_model(x);
    return std::string(e == nullptr ? "(ok)" : e);
  };
  ExpectedModel x = m;
  x.row[kMiddle].classes = row_classes(kMiddle, Wheel::Second);
  CHECK(error_of(x) == "row 1 (middle): classes are not the row's strengths under the wheel");
  x = m;
  x.wheel = Wheel::Second;  // its classes are still the low ones
  CHECK(error_of(x) == "row 1 (middle): classes are not the row's strengths under the wheel");
  x = m;
  x.wheel = static_cast<Wheel>(5);
  CHECK(error_of(x) == "wheel: unknown");
  x = m;
  x.row[kBack].extra_loss.pop_back();
  CHECK(error_of(x) == "row 2 (back): vectors of different lengths");
  x = m;
  x.row[kFront].always[7] = std::nan("");
  CHECK(error_of(x) == "row 0 (front): a value is not finite");
  x = m;
  x.scoop_bonus = std::numeric_limits<double>::infinity();
  CHECK(error_of(x) == "pair terms: a value is not finite");
  x = m;
  x.row[kMiddle].win[100] = 0.5;  // changed after finish_model
  CHECK(error_of(x) == "middle_upto: not what finish_model derives from the middle row");
  finish_model(x);
  CHECK(error_of(x) == "(ok)");
  x = m;
  for (auto& v : x.middle_upto) v.clear();
  CHECK(error_of(x) == "middle_upto: not derived (call finish_model)");
  // finish_model leaves a model with unequal middle vectors without bounds instead of reading past them.
  x = m;
  x.row[kMiddle].loss.resize(10);
  finish_model(x);
  CHECK(x.middle_upto[0].empty() && validate_model(x) != nullptr);

  // expected_units never reads outside the model: strengths that are not classes of their row fail.
  double ev = -7;
  const Strength good[3] = {eval({"7s", "5h", "3c"}), eval({"Ts", "9h", "8c", "4d", "2h"}), eval({"As", "Ah", "Kd", "Kc", "2h"})};
  CHECK(expected_units(good, m, &ev) && ev == 0);
  ExpectedModel y = m;
  y.row[kFront].win[class_of(y.row[kFront].classes, good[0])] = 0.25;
  CHECK(expected_units(good, y, &ev) && near(ev, 0.25));
  const Strength five_in_front[3] = {good[1], good[1], good[2]};
  const Strength zero[3] = {0, 0, 0};
  const Strength huge[3] = {good[0], good[1], 0xFFFFFFFFu};
  ev = -7;
  CHECK(!expected_units(five_in_front, m, &ev) && !expected_units(zero, m, &ev) && !expected_units(huge, m, &ev));
  CHECK(ev == -7);
  ExpectedModel empty;
  CHECK(!expected_units(good, empty, &ev) && validate_model(empty) != nullptr);
  ExpectedModel short_row = m;
  short_row.row[kBack].win.resize(3);
  CHECK(!expected_units(good, short_row, &ev));
}

// ----- arranging one hand -----

static void test_arrange_hand() {
  const RulesSpec rules = pagat_bonus();
  const FieldTables field = synthetic_field({{eval({"9s", "9h", "2c"}), 1.0}}, {{eval({"Ts", "Th", "2c", "3d", "4h"}), 1.0}},
                                            {{eval({"Js", "Jh", "Jd", "3d", "4h"}), 1.0}});
  ExpectedModel model;
  CHECK(build_expected_model(field, rules, &model) == nullptr);
  const auto hand = hand_of("As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d");
  ArrangeResult strongest, expected;
  CHECK(!arrange_hand(hand.data(), rules, model, false, &strongest));
  CHECK(!arrange_hand(hand.data(), rules, model, true, &expected));
  Arrangement a;
  CHECK(!strongest_arrangement(hand.data(), rules, &a));
  CHECK(std::memcmp(a.cards, strongest.cards, 13) == 0);
  CHECK(strongest.strength[2] == make_strength(kStraightFlush, 14, 13, 12, 11, 10) &&
        strongest.strength[1] == make_strength(kFullHouse, 9, 2) && strongest.strength[0] == make_strength(kHighCard, 7, 5, 3));
  // The strongest setting's expectation under the model: front loses (7 high < the field's 9s), middle
  // (a full house, royalty 2) and back (a royal flush, royalty 5) win against the field's rows.
  double ev = 0;
  CHECK(expected_units(strongest.strength, model, &ev) && ev == strongest.expected_units);
  CHECK(near(ev, -1 + (1 + 1) + (1 + 4)));
  double best = 0;
  CHECK(!expected_arrangement(hand.data(), rules, model, &a, &best));
  CHECK(std::memcmp(a.cards, expected.cards, 13) == 0 && best == expected.expected_units);
  CHECK(expected.expected_units >= strongest.expected_units);
  CHECK(expected_units(expected.strength, model, &ev) && near(ev, expected.expected_units));
  CHECK(is_legal(a, rules) && same_cards(expected.cards, hand.data()));
  CHECK(strongest.natural == -1 && expected.natural == -1);
  // The natural held is reported whatever the declaration rule; the setting is arranged anyway.
  const auto dragon = hand_of("Ks Qs Js 2c 3d 4h 5s 6c 7d 8h 9s Tc Ad");
  ArrangeResult d;
  CHECK(!arrange_hand(dragon.data(), rules, model, true, &d));
  CHECK(d.natural == 3 && same_cards(d.cards, dragon.data()));
  RulesSpec automatic = rules;
  automatic.natural_auto = true;
  CHECK(!arrange_hand(dragon.data(), automatic, model, false, &d) && d.natural == 3);
  // A bad card is the CardIssue.
  auto bad = hand;
  bad[6] = bad[2];
  const CardIssue issue = arrange_hand(bad.data(), rules, model, true, &d);
  CHECK(issue.kind == CardIssueKind::kDuplicate && issue.position == 6 && issue.first_position == 2 && issue.item == 0);
}

// ----- the second stage -----

static void test_second_stage() {
  ExpectedModel m = zero_model();
  m.overall_unit = 1;
  m.scoop_bonus = 3;
  const Strength f_low = eval({"7s", "5h", "3c"}), f_pair = eval({"9s", "9h", "2c"});
  const Strength m_pair = eval({"Ts", "Th", "2c", "3d", "4h"}), m_trips = eval({"Ts", "Th", "Td", "3d", "4h"});
  const Strength b_straight = eval({"2s", "3d", "4c", "5h", "6s"}), b_flush = eval({"As", "Ks", "Qs", "Js", "9s"});
  // Three opponents: one every row of ours beats, one that beats our middle and back, one equal to ours.
  const std::vector<Strength> rows[3] = {{f_low, f_low, f_pair}, {m_pair, m_trips, m_trips}, {b_straight, b_flush, b_flush}};
  // The opponent's back flush is worth 4 units more when it wins (a royalty under "add").
  const std::size_t flush_class = class_of(m.row[2].classes, b_flush);
  m.row[2].extra_win[flush_class] = 4;
  finish_model(m);
  CHECK(set_field_sample(m, rows, 4) == nullptr && m.sample.size() == 3 && m.top == 4);
  CHECK(validate_model(m) == nullptr);
  CHECK(m.sample.extra_above[2][flush_class - 1] == 8 && m.sample.extra_above[2][flush_class] == 0 &&
        m.sample.above[2][flush_class - 1] == 2 && m.sample.below[2][flush_class] == 1 && m.sample.extra_sum[2] == 4);
  // Ours: a pair of nines in front, trips in the middle, the flush behind (its own royalty 4 when it wins).
  const std::int16_t ours[3] = {static_cast<std::int16_t>(class_of(m.row[0].classes, f_pair)),
                                static_cast<std::int16_t>(class_of(m.row[1].classes, m_trips)),
                                static_cast<std::int16_t>(flush_class)};
  // Against the first: a scoop, 3 rows + 1 overall + 3 bonus + the flush's 4 = 11; against the second the
  // front wins, middle and back push: +1; against the third every row pushes: 0.
  CHECK(near(sample_units(m, ours), (11.0 + 1.0 + 0.0) / 3));
  // A weaker setting of ours: a low front, the pair in the middle, the straight behind. Against the first
  // opponent all push; against the second and third it loses middle and back (and the front to the third):
  // -2 - 1 overall - 4 (their flush) = -7, and -3 - 1 - 3 - 4 = -11.
  const std::int16_t weaker[3] = {static_cast<std::int16_t>(class_of(m.row[0].classes, f_low)),
                                  static_cast<std::int16_t>(class_of(m.row[1].classes, m_pair)),
                                  static_cast<std::int16_t>(class_of(m.row[2].classes, b_straight))};
  CHECK(near(sample_units(m, weaker), (0.0 - 7.0 - 11.0) / 3));
  // A scoop multiplier of 2 adds (3 + overall + bonus) = 7 to a scoop either way.
  m.scoop_multiplier = 2;
  CHECK(near(sample_units(m, ours), (18.0 + 1.0 + 0.0) / 3));
  CHECK(near(sample_units(m, weaker), (0.0 - 7.0 - 18.0) / 3));
  // With the royalties in the multiplier, our scooping flush's 4 units once more.
  m.royalties_in_multiplier = true;
  CHECK(near(sample_units(m, ours), (22.0 + 1.0 + 0.0) / 3));
  m.royalties_in_multiplier = false;
  m.scoop_multiplier = 1;
  // Bad samples leave the model without a second stage.
  ExpectedModel fractional = m;
  fractional.row[0].extra_win[0] = 2.5;
  finish_model(fractional);
  CHECK(std::string(set_field_sample(fractional, rows, 4)) ==
            "sample: a royalty extra is not a whole number of units in 0..1000" &&
        fractional.top == 0 && fractional.sample.size() == 0);
  ExpectedModel bad = m;
  const std::vector<Strength> uneven[3] = {{f_low}, {m_pair, m_pair}, {b_flush}};
  CHECK(std::string(set_field_sample(bad, uneven, 4)) == "sample: the rows differ in length" &&
        bad.sample.size() == 0 && bad.top == 0);
  const std::vector<Strength> not_a_front[3] = {{m_pair}, {m_pair}, {b_flush}};
  CHECK(std::string(set_field_sample(bad, not_a_front, 4)) == "sample: a front strength is not one of the front's classes");
  CHECK(std::string(set_field_sample(bad, rows, 9)) == "sample: top must be 0 to 8");
  CHECK(std::string(set_field_sample(bad, rows, -1)) == "sample: top must be 0 to 8");
  CHECK(sample_units(bad, ours) == 0);
  ExpectedModel out_of_range = m;
  out_of_range.sample.row_class[1][0] = 7462;
  CHECK(std::string(validate_model(out_of_range)) == "sample: a class index is out of range");

  // Arranging with a second stage: a legal setting of the cards, valued by the model, the same for any
  // order of the cards, and the model's best when the sample cannot tell the candidates apart.
  const RulesSpec rules = pagat_bonus();
  const FieldTables field = synthetic_field({{f_pair, 0.5}, {f_low, 0.5}}, {{m_pair, 1.0}}, {{b_straight, 0.5}, {b_flush, 0.5}});
  ExpectedModel model;
  CHECK(build_expected_model(field, rules, &model) == nullptr);
  ExpectedModel staged = model;
  CHECK(set_field_sample(staged, rows, 4) == nullptr && validate_model(staged) == nullptr);
  for (const char* text : {"As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d", "Ah Kd Qc Js 9h 8d 7c 6s 5h 4d 3c 2s Td",
                           "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c"}) {
    auto hand = hand_of(text);
    Arrangement a, b;
    double ev = 0, ev_shuffled = 0, value = 0;
    CHECK(!expected_arrangement(hand.data(), rules, staged, &a, &ev));
    CHECK(is_legal(a, rules) && same_cards(a.cards, hand.data()));
    CHECK(expected_units(a.strength, staged, &value) && value == ev);
    std::reverse(hand.begin(), hand.end());
    CHECK(!expected_arrangement(hand.data(), rules, staged, &b, &ev_shuffled));
    CHECK(std::memcmp(a.cards, b.cards, 13) == 0 && ev == ev_shuffled);
  }
  // Against one opponent holding the weakest row of each kind every candidate scoops: equal units, so the
  // model's own best is played.
  ExpectedModel flat = model;
  const std::vector<Strength> weakest[3] = {{eval({"4c", "3d", "2h"})}, {eval({"7c", "5d", "4h", "3s", "2c"})},
                                            {eval({"7c", "5d", "4h", "3s", "2c"})}};
  CHECK(set_field_sample(flat, weakest, 8) == nullptr);
  for (const char* text : {"As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d", "Ah Kd Qc Js 9h 8d 7c 6s 5h 4d 3c 2s Td"}) {
    const auto hand = hand_of(text);
    Arrangement a, b;
    double ev = 0, ev_model = 0;
    CHECK(!expected_arrangement(hand.data(), rules, flat, &a, &ev));
    CHECK(!expected_arrangement(hand.data(), rules, model, &b, &ev_model));
    CHECK(std::memcmp(a.cards, b.cards, 13) == 0 && ev == ev_model);
  }
}

// ----- any byte in any position -----

static void expect_issue(const CardIssue& issue, CardIssueKind kind, int position, int card, int first_position) {
  CHECK(issue.kind == kind && issue.position == position && issue.card == card && issue.first_position == first_position);
}

static void test_bad_codes_everywhere() {
  const RulesSpec rules = pagat_bonus();
  const ExpectedModel model = zero_model();
  const auto good = hand_of("2c 2d 5h / 5s 7c 7d 9h 9s / Jc Jd Kh Ks Ac");
  std::vector<Arrangement> buffer(kNumSplits);
  int failures_before = g_failures;
  auto check_hand = [&](const std::vector<std::uint8_t>& h, CardIssueKind kind, int position, int first) {
    const int card = h[static_cast<std::size_t>(position)];
    expect_issue(check_cards(h.data(), 13, 0), kind, position, card, first);
    ArrangeResult r;
    expect_issue(arrange_hand(h.data(), rules, model, true, &r), kind, position, card, first);
    expect_issue(arrange_hand(h.data(), rules, model, false, &r), kind, position, card, first);
    Arrangement a;
    double ev = 0;
    std::size_t n = 99;
    expect_issue(strongest_arrangement(h.data(), rules, &a), kind, position, card, first);
    expect_issue(expected_arrangement(h.data(), rules, model, &a, &ev), kind, position, card, first);
    expect_issue(legal_arrangements(h.data(), rules, true, false, buffer.data(), &n), kind, position, card, first);
    CHECK(n == 0);
    std::vector<std::uint8_t> batch(good);
    batch.insert(batch.end(), h.begin(), h.end());
    batch.insert(batch.end(), good.begin(), good.end());
    std::vector<std::uint8_t> out(batch.size());
    const CardIssue issue = arrange_batch(batch.data(), 3, rules, &model, out.data(), nullptr);
    CHECK(issue.item == 1);
    expect_issue(issue, kind, position, card, first);
    CHECK(detect_natural(h.data(), rules) == -1 && held_naturals(h.data(), rules) == 0);
    CHECK(!holds_natural(NaturalKind::kSixPairs, h.data(), rules) &&
          natural_key(NaturalKind::kSixPairs, h.data(), rules) == 0);
    PlayerInput in;
    in.cards = h.data();
    PlayerFacts f;
    const SettleError e = player_facts(in, 2, rules, &f);
    CHECK(e.status == SettleStatus::kBadCards && e.player == 2);
    expect_issue(e.cards, kind, position, card, first);
  };
  CHECK(detect_natural(good.data(), rules) == 0);  // the unbroken hand holds six pairs
  for (int pos = 0; pos < 13; ++pos) {
    for (int code = kDeckSize; code < 256; ++code) {
      auto h = good;
      h[static_cast<std::size_t>(pos)] = static_cast<std::uint8_t>(code);
      check_hand(h, CardIssueKind::kOutOfRange, pos, -1);
    }
    for (int other = 0; other < 13; ++other) {
      if (other == pos) continue;
      auto h = good;
      h[static_cast<std::size_t>(pos)] = h[static_cast<std::size_t>(other)];
      check_hand(h, CardIssueKind::kDuplicate, std::max(pos, other), std::min(pos, other));
    }
  }
  CHECK(g_failures == failures_before);
  // Rounds of four players: every position of the table, every bad code, every repeat.
  std::vector<std::uint8_t> table(52);
  for (std::size_t k = 0; k < 52; ++k) table[k] = static_cast<std::uint8_t>((k * 7) % 52);
  std::vector<std::int64_t> net(4);
  CHECK(!settle_batch(table.data(), 1, 4, rules, net.data()));
  auto check_round_of = [&](const std::vector<std::uint8_t>& t, CardIssueKind kind, int position, int first) {
    const int card = t[static_cast<std::size_t>(position)];
    expect_issue(check_round(t.data(), 4, 0), kind, position, card, first);
    SettleError e = settle_batch(t.data(), 1, 4, rules, net.data());
    CHECK(e.status == SettleStatus::kBadCards && e.round == 0 && e.player == position / 13);
    expect_issue(e.cards, kind, position, card, first);
    PlayerInput in[4];
    for (std::size_t p = 0; p < 4; ++p) in[p].cards = t.data() + 13 * p;
    RoundResult result;
    e = settle_round(in, 4, rules, nullptr, &result);
    CHECK(e.status == SettleStatus::kBadCards && e.player == position / 13);
    expect_issue(e.cards, kind, position, card, first);
  };
  for (int pos = 0; pos < 52; ++pos) {
    for (int code = kDeckSize; code < 256; ++code) {
      auto t = table;
      t[static_cast<std::size_t>(pos)] = static_cast<std::uint8_t>(code);
      check_round_of(t, CardIssueKind::kOutOfRange, pos, -1);
    }
    for (int other = 0; other < 52; ++other) {
      if (other == pos) continue;
      auto t = table;
      t[static_cast<std::size_t>(pos)] = t[static_cast<std::size_t>(other)];
      check_round_of(t, CardIssueKind::kDuplicate, std::max(pos, other), std::min(pos, other));
    }
  }
  CHECK(g_failures == failures_before);
}


// --- RULES.md 3.1's worked examples and banker rounds ---
static RoundResult settle_with(const std::vector<const char*>& texts, const RulesSpec& rules, const RoundOptions& options,
                               const std::vector<bool>& declared = {}) {
  std::vector<std::vector<std::uint8_t>> cards;
  for (const char* t : texts) cards.push_back(hand_of(t));
  PlayerInput in[kMaxPlayers];
  for (std::size_t p = 0; p < cards.size(); ++p) {
    in[p].cards = cards[p].data();
    in[p].declared = p < declared.size() && declared[p];
  }
  RoundResult result;
  const SettleError error = settle_round(in, static_cast<int>(cards.size()), rules, options, &result);
  CHECK(!error);
  return result;
}

static void test_settlement_knobs() {
  const std::vector<const char*> e1 = {"6s 6h 6d / 4s 4h 4d 9s 9h / Ks Kh Kd 8s 8h",
                                       "Qs Qh 7s / Js Jh Jd 2s 2h / Ac 5s 5h 5d 5c"};
  const std::vector<const char*> e2 = {
      "Ts Th Qs / 6s 5s 4s 3s 2h / Ks Kh Kd 3h 3d", "Ac Kc 7s / Td Tc 9s 8s 6c / Jh Jd Jc 7h 7d",
      "Qd Qc 2c / 8h 7c 6d 5c 4c / 9h 9d 9c 8d 8c", "Qh Js 6h / 5h 5d 4h 4d 3c / As Ah Ad 2s 2d"};
  const std::vector<const char*> e6 = {
      "Ac Ad Kc / Ks Qd Js Td 9s / Ah Jh 9h 7h 5h", "Kd Qc 2c / Qs Qh 8c 6c 3d / 3c 4c 5c 6d 7d",
      "Kh Jc 2d / Tc Th 8d 6s 3s / 8h 8s 5d 5s 2h", "As Jd Ts / 9c 9d 7c 7s 6h / 4d 4h 4s 3h 2s"};
  RulesSpec r;
  r.row_base = {1, 2, 3};
  CHECK(settle_texts(e1, r).net[0] == -4);
  r = pagat_bonus();
  r.row_base = {1, 2, 3};
  CHECK(settle_texts(e1, r).net[0] == -3);
  r.royalty_add = true;
  CHECK(settle_texts(e1, r).net[0] == -7);
  // Chi A, pairwise: E2's aces 0, 1, 0, 3.
  r = RulesSpec{};
  r.ace_units = 1;
  RoundResult out = settle_texts(e2, r);
  CHECK(out.net[0] == -1 && out.net[1] == -5 && out.net[2] == -1 && out.net[3] == 7);
  CHECK(out.facts[3].aces == 3 && out.pairs[2].ace_units == -3);
  // Foul as laid; two fouls as laid.
  const std::vector<const char*> fouls = {"Qc Jd 8h / 9h 9d 5c 5d 2c / 6c 6d 6h 6s 8d",
                                          "Kh Ks 2d / Tc Th 9c 5s 3h / Ac Ad 7c 7d 4s"};
  r = RulesSpec{};
  r.foul_policy = FoulPolicy::kAsLaid;
  out = settle_texts(fouls, r);
  CHECK(out.net[0] == 1 && out.pairs[0].decided_by == DecidedBy::kRows && out.facts[1].foul);
  r.foul_policy = static_cast<FoulPolicy>(3);
  CHECK(std::string(validate_rules(r)) == "foul_policy");
  const std::vector<const char*> two_fouls = {"Ah Ad 3c / Kc Qd 8h 6s 2c / Tc 9d 7h 5s 4d",
                                              "Kh Ks 2d / Jc Jd 9c 5h 3h / Qc Qh 7c 7d 4s"};
  r = RulesSpec{};
  CHECK(settle_texts(two_fouls, r).net[0] == 0);
  r.foul_vs_foul_as_laid = true;
  CHECK(settle_texts(two_fouls, r).net[0] == -1);
  // Caps and the home-run bonus, E6 under shisanzhang-hk (shots 3 x 2, home run x 2).
  RulesSpec hk;
  hk.scoop_multiplier = 2;
  hk.royalties_in_multiplier = true;
  hk.home_run_multiplier = 2;
  hk.foul_policy = FoulPolicy::kAsScooped;
  CHECK(settle_texts(e6, hk).net[0] == 36);
  r = hk;
  r.pair_cap = 5;
  out = settle_texts(e6, r);
  CHECK(out.net[0] == 30 && out.pairs[0].capped && out.pairs[0].subtotal == 6);
  r = hk;
  r.home_run_cap = 8;
  out = settle_texts(e6, r);
  CHECK(out.net[0] == 24 && out.pairs[1].home_run_capped);
  r = hk;
  r.home_run_bonus = 1;
  CHECK(settle_texts(e6, r).net[0] == 39);
  r.home_run_multiplier = 1;
  CHECK(settle_texts(e6, r).net[0] == 21);
  // Naturals: six pairs against three flushes, listed [three_flushes 5, six_pairs 3].
  const std::vector<const char*> naturals = {"2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac",
                                             "3h 4h 6h 2s 3s 4s 6s 8s 3d 4d 6d 8d Td"};
  r = RulesSpec{};
  r.num_naturals = 2;
  r.natural_kind[0] = NaturalKind::kThreeFlushes;
  r.natural_kind[1] = NaturalKind::kSixPairs;
  r.natural_units[0] = 5;
  r.natural_units[1] = 3;
  const std::int64_t by_mode[4] = {3, -5, -2, 0};
  for (int mode = 0; mode < 4; ++mode) {
    r.natural_vs_natural = static_cast<NaturalVsNatural>(mode);
    CHECK(settle_texts(naturals, r, {true, true}).net[0] == by_mode[mode]);
  }
  r.natural_vs_natural = static_cast<NaturalVsNatural>(4);
  CHECK(std::string(validate_rules(r)) == "natural_vs_natural");
  // The naturals table: six pairs against three ordinary hands.
  const std::vector<const char*> table = {
      "2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac", "2h 3d Ad / 4c 6c 8c Tc Qc / 4s 6s 8s Ts Qs",
      "2s 3h 5c / 7h 9c Jh Kc Ah / 4d 6d 8d Td Qd", "5d 7s 9d / 3c 3s Js Kd As / 4h 6h 8h Th Qh"};
  const std::vector<bool> first_declares = {true, false, false, false};
  r = pagat_bonus();
  out = settle_texts(table, r, first_declares);
  CHECK(out.net[0] == 9 && out.net[1] == 1 && out.net[2] == -7 && out.net[3] == -3);
  r.natural_settles_table = true;
  out = settle_texts(table, r, first_declares);
  CHECK(out.net[0] == 9 && out.net[1] == -3 && out.net[2] == -3 && out.net[3] == -3);
  r = pagat_bonus();
  r.scoop_multiplier = 2;
  r.home_run_multiplier = 2;
  r.home_run_min_opponents = 1;
  r.natural_units_as_home_run = true;
  CHECK(settle_texts(table, r, first_declares).net[0] == 36);
  r = hk;
  r.num_naturals = 1;
  r.natural_kind[0] = NaturalKind::kSixPairs;
  r.natural_units[0] = 3;
  CHECK(settle_texts(table, r, first_declares).net[0] == 9);
  r.home_run_counts_naturals = true;
  out = settle_texts(table, r, first_declares);
  CHECK(out.net[0] == 18 && out.home_run[0]);
  // A false declaration: refused at 0, paid for otherwise.
  r = pagat_bonus();
  {
    const auto a = hand_of(e1[0]);
    const auto b = hand_of(e1[1]);
    PlayerInput in[2];
    in[0].cards = a.data();
    in[1].cards = b.data();
    in[1].declared = true;
    RoundResult result;
    CHECK(settle_round(in, 2, r, nullptr, &result).status == SettleStatus::kDeclaredWithoutNatural);
    r.false_declaration_units = 6;
    CHECK(!settle_round(in, 2, r, nullptr, &result));
    CHECK(result.net[0] == 6 && result.pairs[0].decided_by == DecidedBy::kFalseDeclaration);
    CHECK(result.facts[1].false_declaration && result.pairs[0].false_declaration_units == 6);
  }
  // The horse card: Ac in E1 (B's), As in E2 (West's).
  r = RulesSpec{};
  r.horse_card = static_cast<std::int8_t>(4 * 12 + 0);
  CHECK(settle_texts(e1, r).net[0] == -2);
  r.horse_card = static_cast<std::int8_t>(4 * 12 + 3);
  out = settle_texts(e2, r);
  CHECK(out.net[0] == 4 && out.net[1] == -6 && out.net[2] == 4 && out.net[3] == -2 && out.pairs[2].horse == 2);
  r.horse_card = 52;
  CHECK(std::string(validate_rules(r)) == "horse_card");
  // Banker rounds: E2 with North the banker, bets 1 2 1 3.
  const std::int64_t bets[4] = {1, 2, 1, 3};
  RoundOptions options;
  options.banker = 0;
  options.bets = bets;
  out = settle_with(e2, RulesSpec{}, options);
  CHECK(out.num_pairs == 3 && out.banker == 0);
  CHECK(out.net[0] == 8 && out.net[1] == -6 && out.net[2] == 1 && out.net[3] == -3);
  CHECK(out.pairs[0].bet == 2 && out.pairs[2].bet == 3 && out.pairs[2].j == 3);
  options.banker = 2;
  options.bets = nullptr;
  out = settle_with(e2, RulesSpec{}, options);
  CHECK(out.pairs[0].i == 0 && out.pairs[0].j == 2 && out.pairs[1].i == 1 && out.pairs[2].j == 3);
  options.banker = 1;
  out = settle_with(e6, hk, options);
  CHECK(!out.home_run[0] && out.num_pairs == 3);
  options.banker = 0;
  CHECK(settle_with(e6, hk, options).home_run[0]);
  // Errors: the banker seat, the bets' range, bets without a banker.
  {
    std::vector<std::vector<std::uint8_t>> cards;
    for (const char* t : e2) cards.push_back(hand_of(t));
    PlayerInput in[4];
    for (int p = 0; p < 4; ++p) in[p].cards = cards[static_cast<std::size_t>(p)].data();
    RoundResult result;
    RoundOptions bad;
    bad.banker = 4;
    SettleError e = settle_round(in, 4, RulesSpec{}, bad, &result);
    CHECK(e.status == SettleStatus::kBadBanker && e.player == 4);
    const std::int64_t zero_bet[4] = {1, 1, 0, 1};
    bad.banker = 0;
    bad.bets = zero_bet;
    e = settle_round(in, 4, RulesSpec{}, bad, &result);
    CHECK(e.status == SettleStatus::kBadBet && e.player == 2);
    const std::int64_t huge_bet[4] = {1, 1, 1, kMaxBet + 1};
    bad.bets = huge_bet;
    e = settle_round(in, 4, RulesSpec{}, bad, &result);
    CHECK(e.status == SettleStatus::kBadBet && e.player == 3);
    bad.banker = -1;
    bad.bets = bets;
    e = settle_round(in, 4, RulesSpec{}, bad, &result);
    CHECK(e.status == SettleStatus::kBadBet && e.player == -1);
  }
  // Every factor at its cap: the per-pair product fits, and only the stake can push it past int64.
  r = RulesSpec{};
  r.row_base = {kMaxUnits, kMaxUnits, kMaxUnits};
  r.num_naturals = 1;
  r.natural_kind[0] = NaturalKind::kSixPairs;
  r.natural_units[0] = 1;
  r.natural_units_as_home_run = true;
  r.scoop_multiplier = kMaxUnits;
  r.home_run_multiplier = kMaxUnits;
  r.home_run_min_opponents = 1;
  r.home_run_counts_naturals = true;
  r.home_run_bonus = kMaxUnits;
  r.horse_card = static_cast<std::int8_t>(4 * 12 + 0);  // Ac, in the six pairs
  r.horse_multiplier = kMaxUnits;
  CHECK(validate_rules(r) == nullptr);
  {
    const auto six = hand_of("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac");
    const auto other = hand_of("2h 3d Ad / 4c 6c 8c Tc Qc / 4s 6s 8s Ts Qs");
    PlayerInput in[2];
    in[0].cards = six.data();
    in[0].declared = true;
    in[1].cards = other.data();
    const std::int64_t top_bets[2] = {1, kMaxBet};
    RoundOptions o;
    o.banker = 0;
    o.bets = top_bets;
    RoundResult result;
    CHECK(!settle_round(in, 2, r, o, &result));
    // 3000 x 1000 x 1000 per natural, x 1000 home run + 1000, x 1000 horse, x 1000 bet.
    const std::int64_t expected = (3'000'000'000LL * 1000 + 1000) * 1000 * 1000;
    CHECK(result.pairs[0].units == expected && result.net[1] == -expected);
    const std::int64_t stakes[4] = {0, 10, 10, 0};
    o.stakes = stakes;
    const SettleError e = settle_round(in, 2, r, o, &result);
    CHECK(e.status == SettleStatus::kOverflow && e.player == 0 && e.other == 1);
  }
}

// ----- Suit tie-break by card, rank-keyed royalties, open-face ------------------------------

static RulesSpec ofc_rules() {
  RulesSpec r;
  r.scoop_bonus = 3;
  r.royalty_add = true;
  r.royalty_always = true;
  r.foul_policy = FoulPolicy::kAsScooped;
  r.fantasyland = Fantasyland::kStandard;
  for (int rank = 6; rank <= 14; ++rank) {  // front pairs: sixes 1 .. aces 9
    r.royalty_at_listed[kFront][kOnePair] = static_cast<std::uint16_t>(r.royalty_at_listed[kFront][kOnePair] | 1u << (rank - 2));
    r.royalty_at[kFront][kOnePair][static_cast<std::size_t>(rank - 2)] = static_cast<std::int16_t>(rank - 5);
  }
  for (int rank = 2; rank <= 14; ++rank) {  // front trips: deuces 10 .. aces 22
    r.royalty_at_listed[kFront][kThreeOfAKind] =
        static_cast<std::uint16_t>(r.royalty_at_listed[kFront][kThreeOfAKind] | 1u << (rank - 2));
    r.royalty_at[kFront][kThreeOfAKind][static_cast<std::size_t>(rank - 2)] = static_cast<std::int16_t>(rank + 8);
  }
  const std::int64_t middle[] = {0, 0, 0, 2, 4, 8, 12, 20, 30};
  const std::int64_t back[] = {0, 0, 0, 0, 2, 4, 6, 10, 15};
  for (std::size_t c = 0; c < 9; ++c) {
    r.royalty[kMiddle][c] = middle[c];
    r.royalty[kBack][c] = back[c];
  }
  r.royalty[kMiddle][kRoyalFlushSlot] = 50;
  r.royalty[kBack][kRoyalFlushSlot] = 25;
  r.royal_listed[kMiddle] = r.royal_listed[kBack] = true;
  return r;
}

// An opponent in fantasyland whose board is not set is valued over a pool of dealt hands: with one entry
// the exact last street equals the advice against that board set, and with two entries their mean.
static void test_ofc_advise_pool() {
  const RulesSpec rules = ofc_rules();
  OfcSituation base;
  base.players = 2;
  base.street_cards = 3, base.street_keep = 2, base.later_cards = 3, base.later_keep = 2;
  const auto own = cards_of({"Qs", "Qh", "2c", "3c", "4d", "5h", "Kc", "Kd", "Ks", "7h", "7d"});
  const int lens[3] = {2, 4, 5};
  for (int r = 0, at = 0; r < 3; ++r) {
    base.boards[0].len[r] = lens[r];
    for (int k = 0; k < lens[r]; ++k) base.boards[0].rows[r][k] = own[static_cast<std::size_t>(at++)];
  }
  const auto held = cards_of({"Qd", "6s", "9c"});
  std::vector<std::uint8_t> unseen;
  for (int c = 0; c < 52; ++c) {
    const auto code = static_cast<std::uint8_t>(c);
    if (std::find(own.begin(), own.end(), code) == own.end() && std::find(held.begin(), held.end(), code) == held.end()) {
      unseen.push_back(code);
    }
  }
  CHECK(unseen.size() == 38);
  base.unseen = unseen.data();
  base.num_unseen = static_cast<int>(unseen.size());
  base.in_fantasyland[1] = true;
  OfcPlacement options[2];
  for (int o = 0; o < 2; ++o) {
    options[o].count = 2;
    options[o].cards[0] = held[static_cast<std::size_t>(o == 0 ? 0 : 2)], options[o].rows[0] = 0;
    options[o].cards[1] = held[1], options[o].rows[1] = 1;
  }
  // Entry e: 14 unseen cards from 14 * e, its board the first 13 of them (front, middle, back).
  std::vector<std::uint8_t> pool_cards(unseen.begin(), unseen.begin() + 28);
  std::vector<std::uint8_t> pool_boards(2 * 2 * 13, 0);
  for (int e = 0; e < 2; ++e) {
    for (int k = 0; k < 13; ++k) {
      pool_boards[static_cast<std::size_t>((e * 2 + 1) * 13 + k)] = pool_cards[static_cast<std::size_t>(e * 14 + k)];
    }
  }
  double direct[2][2];
  for (int e = 0; e < 2; ++e) {
    OfcSituation set = base;
    set.acted[1] = true;
    for (int r = 0, at = 0; r < 3; ++r) {
      set.boards[1].len[r] = r == 0 ? 3 : 5;
      for (int k = 0; k < set.boards[1].len[r]; ++k) set.boards[1].rows[r][k] = pool_cards[static_cast<std::size_t>(e * 14 + at++)];
    }
    OfcOptionValue out[2];
    bool exact = false;
    CHECK(ofc_advise(set, options, 2, rules, 10, 1, out, &exact));
    CHECK(exact && out[0].deals == 1);
    direct[e][0] = out[0].mean, direct[e][1] = out[1].mean;
  }
  for (int entries = 1; entries <= 2; ++entries) {
    OfcSituation pooled = base;
    pooled.pooled[1] = true;
    pooled.pool_size = entries, pooled.pool_stride = 14;
    pooled.pool_cards = pool_cards.data(), pooled.pool_boards = pool_boards.data();
    OfcOptionValue out[2];
    bool exact = false;
    CHECK(ofc_advise(pooled, options, 2, rules, 10, 1, out, &exact));
    CHECK(exact && out[0].deals == entries);
    for (int o = 0; o < 2; ++o) {
      const double want = entries == 1 ? direct[0][o] : (direct[0][o] + direct[1][o]) / 2.0;
      CHECK(std::fabs(out[o].mean - want) < 1e-12);
    }
  }
  // Before the last street the pool's hands are drawn around: every deal is finite and reproducible.
  OfcSituation early = base;
  early.boards[0].len[1] = 2, early.boards[0].len[2] = 3;  // 7 placed: two streets to come
  early.pooled[1] = true;
  early.pool_size = 2, early.pool_stride = 14;
  early.pool_cards = pool_cards.data(), early.pool_boards = pool_boards.data();
  std::vector<std::uint8_t> more = unseen;
  for (int r = 1; r < 3; ++r) {
    for (int k = early.boards[0].len[r]; k < lens[r]; ++k) more.push_back(base.boards[0].rows[r][k]);
  }
  early.unseen = more.data();
  early.num_unseen = static_cast<int>(more.size());
  OfcOptionValue a[2], b[2];
  bool exact = true;
  CHECK(ofc_advise(early, options, 2, rules, 300, 7, a, &exact));
  CHECK(!exact);
  CHECK(ofc_advise(early, options, 2, rules, 300, 7, b, &exact));
  for (int o = 0; o < 2; ++o) CHECK(std::isfinite(a[o].mean) && a[o].mean == b[o].mean && a[o].deals == 300);
}

static void test_ofc_group() {
  // The ranks a key may name are exactly the deciding ranks of the row's hand classes (the straight
  // flush's 5 and A aside: wheel_straight_flush and royal_flush key those).
  for (const Wheel wheel : {Wheel::Low, Wheel::Second}) {
    for (const int row : {kFront, kBack}) {
      std::uint16_t seen[kRoyaltyCategories] = {};
      for (const Strength s : row_classes(row, wheel)) {
        const int cat = category_of(s), rank = deciding_rank(s);
        if (cat == kStraightFlush && (rank == 5 || rank == 14)) continue;
        seen[cat] = static_cast<std::uint16_t>(seen[cat] | 1u << (rank - 2));
      }
      // Five of a kind has no 52-card class: a five-card row may key it at any rank, the front at none.
      seen[kFiveOfAKind] = row == kFront ? 0 : royalty_ranks_allowed(kBack, kFiveOfAKind);
      for (int cat = 0; cat < kRoyaltyCategories; ++cat) CHECK(seen[cat] == royalty_ranks_allowed(row, cat));
    }
  }
  CHECK(deciding_rank(make_strength(kStraight, 14, 5, 4, 3, 2)) == 5);
  CHECK(deciding_rank(make_strength(kStraight, 5, 4, 3, 2, 1)) == 5);
  CHECK(deciding_rank(make_strength(kTwoPair, 14, 5, 4)) == 14);
  CHECK(deciding_rank(make_strength(kFullHouse, 3, 14)) == 3);

  // A rank key overrides its category, even at 0; other ranks keep the category's entry.
  RulesSpec r;
  r.royalty[kFront][kOnePair] = 2;
  r.royalty_at_listed[kFront][kOnePair] = 1u << (14 - 2) | 1u << 0;
  r.royalty_at[kFront][kOnePair][12] = 5;
  CHECK(validate_rules(r) == nullptr);
  CHECK(royalty_of(r, kFront, eval({"As", "Ah", "2c"})) == 5);
  CHECK(royalty_of(r, kFront, eval({"Ks", "Kh", "2c"})) == 2);
  CHECK(royalty_of(r, kFront, eval({"2s", "2h", "Kc"})) == 0);
  CHECK(royalty_of(r, kMiddle, eval({"As", "Ah", "2c", "3d", "4h"})) == 0);
  // The wheel straight flush has its own slot, under either wheel; the royal flush keeps its own.
  r.royalty[kBack][kStraightFlush] = 10;
  r.royalty[kBack][kWheelStraightFlushSlot] = 4;
  r.wheel_sf_listed[kBack] = true;
  r.royalty_at_listed[kBack][kStraight] = 1u << (5 - 2);
  r.royalty_at[kBack][kStraight][3] = 3;
  CHECK(validate_rules(r) == nullptr);
  for (const Wheel wheel : {Wheel::Low, Wheel::Second}) {
    CHECK(royalty_of(r, kBack, eval({"Ah", "2h", "3h", "4h", "5h"}, wheel)) == 4);
    CHECK(royalty_of(r, kBack, eval({"As", "2h", "3h", "4h", "5h"}, wheel)) == 3);
    CHECK(royalty_of(r, kBack, eval({"6h", "2h", "3h", "4h", "5h"}, wheel)) == 10);
    CHECK(royalty_of(r, kBack, eval({"Ah", "Kh", "Qh", "Jh", "Th"}, wheel)) == 10);
  }
  // Strengths of no real hand read no entry (UBSan and ASan watch the shift and the index).
  CHECK(royalty_of(r, kBack, make_strength(kStraight, 15, 0)) == 0);
  CHECK(royalty_of(r, kBack, make_strength(kStraight, 1, 0)) == 0);

  auto bad = [](void (*edit)(RulesSpec&)) {
    RulesSpec spec = ofc_rules();
    edit(spec);
    const char* field = validate_rules(spec);
    return std::string(field == nullptr ? "(valid)" : field);
  };
  CHECK(bad([](RulesSpec&) {}) == "(valid)");
  CHECK(bad([](RulesSpec& x) { x.royalty_at_listed[kFront][kFourOfAKind] = 1u << 12; }) == "royalty_at");
  CHECK(bad([](RulesSpec& x) { x.royalty_at_listed[kBack][kStraight] = 1u << 0; }) == "royalty_at");  // straight@2
  CHECK(bad([](RulesSpec& x) { x.royalty_at_listed[kBack][kStraightFlush] = 1u << 12; }) == "royalty_at");
  CHECK(bad([](RulesSpec& x) { x.royalty_at_listed[kBack][kOnePair] = 1u << 13; }) == "royalty_at");
  CHECK(bad([](RulesSpec& x) { x.royalty_at[kBack][kOnePair][3] = 1; }) == "royalty_at");  // unlisted
  CHECK(bad([](RulesSpec& x) { x.royalty_at[kFront][kOnePair][4] = 1001; }) == "royalty_at");
  CHECK(bad([](RulesSpec& x) { x.royalty_at[kFront][kOnePair][4] = -1; }) == "royalty_at");
  CHECK(bad([](RulesSpec& x) { x.wheel_sf_listed[kFront] = true; }) == "wheel_sf_listed");
  CHECK(bad([](RulesSpec& x) { x.royalty[kBack][kWheelStraightFlushSlot] = 3; }) == "wheel_sf_listed");
  CHECK(bad([](RulesSpec& x) { x.suit_tiebreak = static_cast<SuitTiebreak>(3); }) == "suit_tiebreak");
  CHECK(bad([](RulesSpec& x) { x.jokers = 3; }) == "jokers");
  CHECK(bad([](RulesSpec& x) { x.home_run_min_opponents = 4; }) == "home_run_min_opponents");
  CHECK(bad([](RulesSpec& x) { x.fantasyland = static_cast<Fantasyland>(3); }) == "fantasyland");

  // RULES.md 2.4: equal middles (fives with A-9-3); by_card compares the aces first, highest_card the fives.
  const std::vector<const char*> by_card = {"Kc 8h 2h / Ad 5s 5c 9d 3c / Jc Jd Js 4c 4d",
                                            "Qc 8c 2s / As 5h 5d 9c 3d / Qd Qh Qs 6c 6d"};
  RulesSpec suits;
  suits.suit_tiebreak = SuitTiebreak::kHighestCard;
  CHECK(settle_texts(by_card, suits).pairs[0].rows[1] == 1);
  suits.suit_tiebreak = SuitTiebreak::kByCard;
  CHECK(settle_texts(by_card, suits).pairs[0].rows[1] == -1);
  CHECK(settle_texts(by_card, suits).net[0] == -1);
  // The wheel's ace first by card: A's As beats B's Ac, whereas by the highest card B's 5s beats A's 5c.
  const std::vector<const char*> wheels = {"Kc Qd 7h / 2c 2d 9s 9h Jc / As 2h 3c 4d 5c",
                                           "Kd Qh 7c / 3s 3d Ts Th Jd / Ac 2s 3h 4h 5s"};
  CHECK(settle_texts(wheels, suits).pairs[0].rows[2] == 1);
  suits.suit_tiebreak = SuitTiebreak::kHighestCard;
  CHECK(settle_texts(wheels, suits).pairs[0].rows[2] == -1);

  // The ofc preset: P0 scoops with royalties 7, 8, 6 against 1, 4, 4: 3 + 3 + 12 = 18.
  const RulesSpec ofc = ofc_rules();
  CHECK(validate_rules(ofc) == nullptr);
  const RoundResult two = settle_texts({"Qs Qh 2c / 3d 4d 5d 6d 8d / 9c 9h 9s Kc Kd",
                                        "6s 6h Ac / Tc Jh Qd Ks Ad / 2s 3s 4s 5s 7s"}, ofc);
  CHECK(two.net[0] == 18 && two.facts[0].royalty[0] == 7 && two.facts[1].royalty[0] == 1);
  CHECK(two.facts[0].fantasyland_cards == 14 && two.facts[1].fantasyland_cards == 0);
  const RoundResult fouled = settle_texts({"Qs Qh 2c / 3d 4d 5d 6d 8d / 9c 9h 9s Kc Kd",
                                           "Ks Kh Ac / 6s 6h Tc Qd Ad / 2s 3s 4s 5s 7s"}, ofc);
  CHECK(fouled.net[0] == 27 && fouled.facts[1].fantasyland_cards == 0);

  // RULES.md 4.2: P1 enters; P2 played in fantasyland and stays (trips); P3 played there and leaves.
  const auto p1 = hand_of("Qs Qh 2c / 3d 4d 5d 6d 8d / 9c 9h 9s Kc Kd");
  const auto p2 = hand_of("7c 7d 7h / Tc Jc Qc Ks Ad / 2s 3s 4s 5s 8s");
  const auto p3 = hand_of("Jh Jd 3c / 4c 4h 6c 6h 8c / Ac Ah As Td Th");
  PlayerInput in[3];
  in[0].cards = p1.data();
  in[1].cards = p2.data();
  in[2].cards = p3.data();
  in[1].fantasyland = in[2].fantasyland = true;
  RoundResult result;
  CHECK(!settle_round(in, 3, ofc, nullptr, &result));
  CHECK(result.net[0] == 9 && result.net[1] == 13 && result.net[2] == -22);
  CHECK(result.facts[0].fantasyland_cards == 14 && result.facts[1].fantasyland_cards == 14 &&
        result.facts[2].fantasyland_cards == 0);
  RulesSpec progressive = ofc;
  progressive.fantasyland = Fantasyland::kProgressive;
  in[1].fantasyland = false;
  CHECK(!settle_round(in, 3, progressive, nullptr, &result));
  CHECK(result.facts[1].fantasyland_cards == 17 && result.facts[0].fantasyland_cards == 14);
  // A fantasyland flag needs fantasyland rules; fantasyland rules take 3 players at most.
  const SettleError off = settle_round(in, 3, RulesSpec{}, nullptr, &result);
  CHECK(off.status == SettleStatus::kFantasylandOff && off.player == 2);
  std::uint8_t deck[52];
  for (int k = 0; k < 52; ++k) deck[k] = static_cast<std::uint8_t>(k);
  PlayerInput four[4];
  for (int p = 0; p < 4; ++p) four[p].cards = deck + 13 * p;
  CHECK(settle_round(four, 4, ofc, nullptr, &result).status == SettleStatus::kBadPlayerCount);
  CHECK(!settle_round(four, 4, RulesSpec{}, nullptr, &result));
  std::int64_t nets[4];
  CHECK(settle_batch(deck, 1, 4, ofc, nets).status == SettleStatus::kBadPlayerCount);
  CHECK(!settle_batch(deck, 1, 3, ofc, nets));
}

// A deterministic shuffle for the batch tests (no dependence on the platform's random engines).
static std::uint64_t next_random(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

static std::vector<std::uint8_t> random_rounds(std::size_t rounds, int players, std::uint64_t seed) {
  std::vector<std::uint8_t> out;
  std::uint64_t state = seed;
  for (std::size_t r = 0; r < rounds; ++r) {
    std::uint8_t deck[52];
    for (int k = 0; k < 52; ++k) deck[k] = static_cast<std::uint8_t>(k);
    for (int k = 51; k > 0; --k) std::swap(deck[k], deck[next_random(state) % static_cast<std::uint64_t>(k + 1)]);
    out.insert(out.end(), deck, deck + 13 * players);
  }
  return out;
}

static RulesSpec batch_rules() {
  RulesSpec r;
  r.scoop_multiplier = 2;
  r.home_run_multiplier = 2;
  r.home_run_min_opponents = 2;
  r.surrender_units = 2;
  r.num_naturals = 2;
  r.natural_kind[0] = NaturalKind::kSixPairs;
  r.natural_units[0] = 3;
  r.natural_kind[1] = NaturalKind::kThreeFlushes;
  r.natural_units[1] = 4;
  r.royalty[kBack][kFourOfAKind] = 4;
  return r;
}

// settle_batch with every input column equals settle_round round by round; the per-pair columns are the
// round's pairs; and any thread count and chunk give the same outputs.
static void test_settle_batch_inputs_and_threads() {
  const int players = 4, pairs = 6;
  const std::size_t rounds = 1500;
  const RulesSpec rules = batch_rules();
  std::vector<std::uint8_t> cards = random_rounds(rounds, players, 11);
  std::vector<std::int64_t> stakes(rounds * players * players);
  std::vector<std::uint8_t> surrendered(rounds * players), declared(rounds * players);
  std::uint64_t state = 5;
  for (std::size_t r = 0; r < rounds; ++r) {
    for (int i = 0; i < players; ++i) {
      for (int j = i; j < players; ++j) {
        const auto v = static_cast<std::int64_t>(next_random(state) % 4);
        stakes[r * 16 + static_cast<std::size_t>(i * players + j)] = v;
        stakes[r * 16 + static_cast<std::size_t>(j * players + i)] = v;
      }
      surrendered[r * players + static_cast<std::size_t>(i)] = next_random(state) % 9 == 0 ? 1 : 0;
    }
  }
  // A declared six pairs: pairs of ranks 2..7 and a single ace in player 0's cards of round 3, the rest
  // dealt from what remains; settle_batch must take it and so must settle_round.
  {
    std::vector<std::uint8_t> hand;
    for (int rank = 0; rank < 6; ++rank) {
      hand.push_back(static_cast<std::uint8_t>(make_card(rank, 0)));
      hand.push_back(static_cast<std::uint8_t>(make_card(rank, 1)));
    }
    hand.push_back(static_cast<std::uint8_t>(make_card(12, 3)));
    std::vector<std::uint8_t> rest;
    for (int c = 0; c < 52; ++c) {
      if (std::find(hand.begin(), hand.end(), c) == hand.end()) rest.push_back(static_cast<std::uint8_t>(c));
    }
    std::copy(hand.begin(), hand.end(), cards.begin() + 3 * 52);
    std::copy(rest.begin(), rest.begin() + 39, cards.begin() + 3 * 52 + 13);
    declared[3 * players] = 1;
  }
  std::vector<std::int64_t> net(rounds * players), units(rounds * pairs), home(rounds * pairs);
  std::vector<std::int8_t> rows(rounds * pairs * 3), scoop(rounds * pairs), natural(rounds * pairs * 2);
  std::vector<std::uint8_t> decided(rounds * pairs), foul(rounds * pairs * 2);
  std::vector<std::uint8_t> player_foul(rounds * players), player_home_run(rounds * players);
  std::vector<std::int8_t> player_natural(rounds * players);
  BatchInputs in;
  in.stakes = stakes.data();
  in.declared = declared.data();
  in.surrendered = surrendered.data();
  BatchOutputs out;
  out.net = net.data();
  out.units = units.data();
  out.home_run = home.data();
  out.rows = rows.data();
  out.scoop = scoop.data();
  out.natural = natural.data();
  out.decided_by = decided.data();
  out.foul = foul.data();
  out.player_foul = player_foul.data();
  out.player_natural = player_natural.data();
  out.player_home_run = player_home_run.data();
  CHECK(!settle_batch(cards.data(), rounds, players, rules, in, out, Parallel{}));
  int failures_before = g_failures;
  int player_home_runs_seen = 0;
  int naturals_seen = 0, surrenders_seen = 0, home_runs_seen = 0;
  for (std::size_t r = 0; r < rounds; ++r) {
    PlayerInput p[4];
    for (int k = 0; k < players; ++k) {
      p[k].cards = cards.data() + r * 52 + static_cast<std::size_t>(13 * k);
      p[k].declared = declared[r * players + static_cast<std::size_t>(k)] != 0;
      p[k].surrendered = surrendered[r * players + static_cast<std::size_t>(k)] != 0;
    }
    RoundResult expected;
    CHECK(!settle_round(p, players, rules, stakes.data() + r * 16, &expected));
    for (int k = 0; k < players; ++k) CHECK(net[r * players + static_cast<std::size_t>(k)] == expected.net[k]);
    for (int k = 0; k < players; ++k) {
      const std::size_t at = r * players + static_cast<std::size_t>(k);
      const int nk = expected.facts[k].natural;
      CHECK(player_foul[at] == (expected.facts[k].foul ? 1 : 0));
      CHECK(player_natural[at] == (nk < 0 ? -1 : static_cast<int>(rules.natural_kind[static_cast<std::size_t>(nk)])));
      CHECK(player_home_run[at] == (expected.home_run[k] ? 1 : 0));
      player_home_runs_seen += expected.home_run[k];
    }
    for (int q = 0; q < pairs; ++q) {
      const PairResult& pr = expected.pairs[q];
      const std::size_t at = r * pairs + static_cast<std::size_t>(q);
      CHECK(units[at] == pr.units && home[at] == pr.home_run && scoop[at] == pr.scoop);
      CHECK(decided[at] == static_cast<std::uint8_t>(pr.decided_by));
      for (int row = 0; row < 3; ++row) CHECK(rows[at * 3 + static_cast<std::size_t>(row)] == (pr.rows_known ? pr.rows[row] : 0));
      CHECK(foul[at * 2] == (expected.facts[pr.i].foul ? 1 : 0) && foul[at * 2 + 1] == (expected.facts[pr.j].foul ? 1 : 0));
      const int ni = expected.facts[pr.i].natural;
      CHECK(natural[at * 2] == (ni < 0 ? -1 : static_cast<int>(rules.natural_kind[static_cast<std::size_t>(ni)])));
      naturals_seen += pr.decided_by == DecidedBy::kNatural;
      surrenders_seen += pr.decided_by == DecidedBy::kSurrender;
      home_runs_seen += pr.home_run != 1;
    }
  }
  CHECK(g_failures == failures_before);
  CHECK(natural[3 * pairs * 2] == static_cast<int>(NaturalKind::kSixPairs));  // the declared hand, pair (0, 1)
  CHECK(naturals_seen >= 3 && surrenders_seen > 100 && home_runs_seen > 0 && player_home_runs_seen > 0);
  CHECK(player_natural[3 * players] == static_cast<int>(NaturalKind::kSixPairs));  // the declared hand

  // Threads and chunks: the same bytes out.
  for (const unsigned threads : {2u, 3u, 0u, 7u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      std::vector<std::int64_t> net2(net.size(), -7), units2(units.size(), -7);
      BatchOutputs out2;
      out2.net = net2.data();
      out2.units = units2.data();
      CHECK(!settle_batch(cards.data(), rounds, players, rules, in, out2, Parallel{threads, chunk}));
      CHECK(net2 == net && units2 == units);
    }
  }
  // One matrix for every round: the same as that matrix repeated.
  {
    std::vector<std::int64_t> one(stakes.begin() + 16, stakes.begin() + 32), repeated(stakes.size());
    for (std::size_t r = 0; r < rounds; ++r) std::copy(one.begin(), one.end(), repeated.begin() + static_cast<std::ptrdiff_t>(r * 16));
    std::vector<std::int64_t> a(net.size()), b(net.size());
    BatchInputs shared = in, per_round = in;
    shared.stakes = one.data();
    shared.stakes_per_round = false;
    per_round.stakes = repeated.data();
    BatchOutputs oa, ob;
    oa.net = a.data();
    ob.net = b.data();
    CHECK(!settle_batch(cards.data(), rounds, players, rules, shared, oa, Parallel{2, 0}));
    CHECK(!settle_batch(cards.data(), rounds, players, rules, per_round, ob, Parallel{}));
    CHECK(a == b);
    one[1] = -1;  // stakes[0][1]: refused once, naming no round
    const SettleError e = settle_batch(cards.data(), rounds, players, rules, shared, oa, Parallel{2, 0});
    CHECK(e.status == SettleStatus::kBadStake && e.round == -1 && e.player == 0 && e.other == 1);
  }
  // The lowest failing round is reported whatever the threads and chunks: bad rows at 1400 (a repeated
  // card), 900 (a stake), 610 (declared without a natural) and 600 (surrender while it is off, with its
  // own rules), then with row 0 bad too.
  std::vector<std::uint8_t> bad_cards = cards;
  bad_cards[1400 * 52 + 20] = bad_cards[1400 * 52 + 40];
  std::vector<std::int64_t> bad_stakes = stakes;
  bad_stakes[900 * 16 + 1] = kMaxStake + 1;
  std::vector<std::uint8_t> bad_declared = declared;
  // Round 610's player 2 declares; it is a random deal, so check it holds no natural first.
  PlayerInput probe;
  probe.cards = cards.data() + 610 * 52 + 26;
  probe.declared = true;
  PlayerFacts facts;
  CHECK(player_facts(probe, 2, rules, &facts).status == SettleStatus::kDeclaredWithoutNatural);
  bad_declared[610 * 4 + 2] = 1;
  BatchInputs bad = in;
  bad.stakes = bad_stakes.data();
  bad.declared = bad_declared.data();
  for (const unsigned threads : {1u, 2u, 3u, 0u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{13}, std::size_t{600}}) {
      const Parallel par{threads, chunk};
      SettleError e = settle_batch(bad_cards.data(), rounds, players, rules, bad, out, par);
      CHECK(e.status == SettleStatus::kDeclaredWithoutNatural && e.round == 610 && e.player == 2);
      std::vector<std::uint8_t> with_first = bad_cards;
      with_first[5] = 52;
      e = settle_batch(with_first.data(), rounds, players, rules, bad, out, par);
      CHECK(e.status == SettleStatus::kBadCards && e.round == 0 && e.cards.item == 0 && e.cards.card == 52);
      BatchInputs no_declared = bad;
      no_declared.declared = nullptr;
      e = settle_batch(bad_cards.data(), rounds, players, rules, no_declared, out, par);
      CHECK(e.status == SettleStatus::kBadStake && e.round == 900 && e.player == 0 && e.other == 1);
      BatchInputs cards_only;
      e = settle_batch(bad_cards.data(), rounds, players, rules, cards_only, out, par);
      CHECK(e.status == SettleStatus::kBadCards && e.round == 1400);
      RulesSpec off = rules;
      off.surrender_units = 0;
      std::vector<std::uint8_t> one_surrender(rounds * players, 0);
      one_surrender[600 * 4 + 3] = 1;
      BatchInputs surrender_off = bad;
      surrender_off.surrendered = one_surrender.data();
      e = settle_batch(bad_cards.data(), rounds, players, off, surrender_off, out, par);
      CHECK(e.status == SettleStatus::kSurrenderOff && e.round == 600 && e.player == 3);
    }
  }
  // No rounds at all, on any thread count.
  CHECK(!settle_batch(cards.data(), 0, players, rules, in, out, Parallel{3, 0}));
}

static void test_evaluate_and_arrange_threads() {
  const std::vector<std::uint8_t> deals = random_rounds(4000, 4, 3);  // 16000 hands
  // Ten five-card rows from each deal's first 50 cards: 40000 rows of distinct cards.
  std::vector<std::uint8_t> five;
  for (std::size_t r = 0; r < 4000; ++r) five.insert(five.end(), deals.begin() + static_cast<std::ptrdiff_t>(r * 52), deals.begin() + static_cast<std::ptrdiff_t>(r * 52 + 50));
  const std::size_t rows5 = five.size() / 5;
  std::vector<std::int32_t> one(rows5), many(rows5);
  CHECK(!evaluate_batch(five.data(), rows5, 5, Wheel::Low, one.data()));
  for (const unsigned threads : {2u, 3u, 0u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{300}}) {
      std::fill(many.begin(), many.end(), -1);
      CHECK(!evaluate_batch(five.data(), rows5, 5, Wheel::Low, many.data(), Parallel{threads, chunk}));
      CHECK(many == one);
      std::vector<std::uint8_t> bad = five;
      bad[5 * 30000 + 2] = bad[5 * 30000 + 4];
      bad[5 * 20000 + 1] = 99;
      bad[5 * 20001 + 1] = 99;
      const CardIssue issue = evaluate_batch(bad.data(), rows5, 5, Wheel::Low, many.data(), Parallel{threads, chunk});
      CHECK(issue.kind == CardIssueKind::kOutOfRange && issue.item == 20000);
    }
  }
  const RulesSpec rules = batch_rules();
  const std::size_t hands = 600;
  std::vector<std::uint8_t> a(hands * 13), b(hands * 13);
  CHECK(!arrange_batch(deals.data(), hands, rules, nullptr, a.data(), nullptr));
  for (const unsigned threads : {2u, 3u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{50}}) {
      std::fill(b.begin(), b.end(), 0);
      CHECK(!arrange_batch(deals.data(), hands, rules, nullptr, b.data(), nullptr, Parallel{threads, chunk}));
      CHECK(a == b);
    }
  }
}

// ace_basis "table" and shooting "no_lost_row" (RULES.md 3.1, 11.7, 11.9).
// home_run_scope "table" on the shisanshui-puxian worked example (RULES.md 6), and twelve_royals_and_one.
static void test_home_run_scope_and_twelve_royals_and_one() {
  RulesSpec r;
  r.wheel = Wheel::Second;
  r.royalty[kFront][3] = 3;   // trips
  r.royalty[kMiddle][6] = 2;  // full house
  r.royalty[kMiddle][7] = 8;  // four of a kind
  r.royalty[kMiddle][8] = 10; // straight flush
  r.royalty[kBack][7] = 4;
  r.royalty[kBack][8] = 5;
  r.scoop_multiplier = 2;
  r.royalties_in_multiplier = true;
  r.home_run_multiplier = 2;
  r.home_run_min_opponents = 2;
  r.horse_card = static_cast<std::int8_t>(cards_of({"8h"})[0]);
  const std::vector<const char*> table = {
      "Kc Kd Kh / Ac Ad Ah As 2d / 9s Ts Js Qs Ks", "Qc Qd 3h / 8c 8d 8h 4d 4h / 7c 7d 7h 7s 3c",
      "Jc Jh 2h / 9c 9d 9h 5c 5h / 6c 6d 6h 6s 2c", "Qh Jd 8s / 3d 3s 5d 5s 2s / Tc Td Th 4c 4s"};
  CHECK(validate_rules(r) == nullptr);
  RoundResult out = settle_texts(table, r);
  CHECK(out.net[0] == 256 && out.net[1] == -94 && out.net[2] == -56 && out.net[3] == -106);
  r.home_run_scope_table = true;
  out = settle_texts(table, r);
  CHECK(out.net[0] == 256 && out.net[1] == -60 && out.net[2] == -48 && out.net[3] == -148);
  for (int q = 0; q < out.num_pairs; ++q) CHECK(out.pairs[q].home_run == 2);
  // The bonus and the cap stay on the home-run player's pairs.
  r.home_run_bonus = 1;
  r.home_run_cap = 60;
  out = settle_texts(table, r);
  CHECK(out.pairs[0].units == 120 && out.pairs[1].units == 60 && out.pairs[2].units == 60);  // North's
  CHECK(out.pairs[3].units == 12 && out.pairs[4].units == 56 && out.pairs[5].units == 28);
  CHECK(out.pairs[3].home_run_bonus_units == 0 && !out.pairs[3].home_run_capped);
  // Nobody makes a home run: nothing is multiplied.
  r.home_run_min_opponents = 3;
  r.home_run_bonus = 0;
  r.home_run_cap = 0;
  out = settle_texts({table[1], table[2], table[3]}, r);
  for (int q = 0; q < out.num_pairs; ++q) CHECK(out.pairs[q].home_run == 1);
  // Twelve of J..A and at most one lower card.
  const RulesSpec plain;
  auto held = [&plain](NaturalKind k, const char* text) { return holds_natural(k, hand_of(text).data(), plain); };
  CHECK(held(NaturalKind::kTwelveRoyalsAndOne, "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c"));
  CHECK(held(NaturalKind::kTwelveRoyalsAndOne, "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac"));
  CHECK(!held(NaturalKind::kTwelveRoyalsAndOne, "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Tc 2c"));
  CHECK(!held(NaturalKind::kTwelveRoyals, "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c"));
  CHECK(natural_name(NaturalKind::kTwelveRoyalsAndOne) == std::string("twelve_royals_and_one"));
}

static void test_presets_group() {
  // The maubinh round of RULES.md 6 without its royalty table: North scoops everyone (West fouls).
  const std::vector<const char*> table = {
      "As Ah Ad / Kc Kd Kh 5c 5d / 9s Ts Js Qs Ks", "2c 3d 4h / 6c 7d 8h 9c Jd / Tc Th Td 2s 3s",
      "Qc Qd 7s / 8c 8d 6h 6d 4c / Ac 2h 3h 4s 5s", "Jc Jh Qh / 9d 9h 2d 3c 4d / 7c 7h 8s 6s 5h"};
  RulesSpec r;
  r.ace_units = 1;
  r.ace_basis_table = true;
  RoundResult out = settle_texts(table, r);
  // Pairs (one unit a row, fouls lose three rows): +9 -3 +3 -9; aces 3, 0, 1, 0 give +2 -1 0 -1.
  CHECK(out.facts[0].ace_units == 2 && out.facts[1].ace_units == -1 && out.facts[2].ace_units == 0);
  CHECK(out.net[0] == 11 && out.net[1] == -4 && out.net[2] == 3 && out.net[3] == -10);
  for (int q = 0; q < out.num_pairs; ++q) CHECK(out.pairs[q].ace_units == 0);
  // Three players, or a banker: refused.
  std::vector<std::vector<std::uint8_t>> cards;
  for (const char* t : table) cards.push_back(hand_of(t));
  PlayerInput in[kMaxPlayers];
  for (std::size_t p = 0; p < cards.size(); ++p) in[p].cards = cards[p].data();
  RoundResult result;
  CHECK(settle_round(in, 3, r, nullptr, &result).status == SettleStatus::kAceBasisTable);
  RoundOptions options;
  options.banker = 1;
  const SettleError error = settle_round(in, 4, r, options, &result);
  CHECK(error.status == SettleStatus::kAceBasisTable && error.other == 1);
  // shooting: a 1-0-2 (a tie in front and middle) is doubled under "no_lost_row" only, never a scoop.
  const std::vector<const char*> ties = {"Kh Kd 2c / 9s 9h 8d 4c 4d / As Qs Js 7s 3s",
                                         "Kc Ks 2d / 9c 9d 8h 4h 4s / Ah Jh 6h 5h 2h"};
  RulesSpec s;
  s.scoop_multiplier = 2;
  s.scoop_bonus = 1;
  CHECK(settle_texts(ties, s).net[0] == 1);
  s.shooting_no_lost_row = true;
  out = settle_texts(ties, s);
  CHECK(out.net[0] == 2 && out.pairs[0].scoop == 0 && out.pairs[0].multiplier == 2);
  test_home_run_scope_and_twelve_royals_and_one();
}

// Packs with added suits, five of a kind, the naturals of more cards.
static Strength eval_pack(std::initializer_list<const char*> tokens, Wheel wheel = Wheel::Low) {
  const auto c = cards_of(tokens);
  return evaluate5_in_pack(c.data(), wheel);
}

static void test_deck_group() {
  constexpr unsigned kSpades = 1u << 3, kClubsHearts = 1u | 1u << 2;
  // Five of a kind ranks above every straight flush; flushes holding a pair are flushes by their ranks.
  CHECK(eval_pack({"As", "As", "Ah", "Ad", "Ac"}) == make_strength(kFiveOfAKind, 14));
  CHECK(eval_pack({"2s", "2s", "2h", "2d", "2c"}) > eval({"As", "Ks", "Qs", "Js", "Ts"}));
  CHECK(eval_pack({"As", "As", "Ks", "Qs", "Js"}) == make_strength(kFlush, 14, 14, 13, 12, 11));
  CHECK(eval_pack({"As", "As", "Ks", "Ks", "Js"}) == make_strength(kFlush, 14, 14, 13, 13, 11));
  CHECK(eval_pack({"As", "As", "Ks", "Qs", "Js"}) > eval({"As", "Ks", "Qs", "Js", "9s"}));
  CHECK(eval_pack({"As", "As", "Ks", "Qs", "Js"}) < eval({"2c", "2d", "2h", "3s", "3c"}));
  CHECK(eval_pack({"As", "As", "Kh", "Qs", "Js"}) == make_strength(kOnePair, 14, 13, 12, 11));
  CHECK(eval_pack({"As", "Ks", "Qs", "Js", "Ts"}) == eval({"As", "Ks", "Qs", "Js", "Ts"}));
  // Every 52-card hand evaluates the same by both kernels (a sample: every 7th of all 2,598,960).
  {
    std::uint8_t h[5];
    bool same = true;
    long n = 0;
    for (h[0] = 0; h[0] < 52; ++h[0])
      for (h[1] = static_cast<std::uint8_t>(h[0] + 1); h[1] < 52; ++h[1])
        for (h[2] = static_cast<std::uint8_t>(h[1] + 1); h[2] < 52; ++h[2])
          for (h[3] = static_cast<std::uint8_t>(h[2] + 1); h[3] < 52; ++h[3])
            for (h[4] = static_cast<std::uint8_t>(h[3] + 1); h[4] < 52; ++h[4])
              if (++n % 7 == 0) {
                for (const Wheel w : {Wheel::Low, Wheel::Second}) same = same && evaluate5_in_pack(h, w) == evaluate5(h, w);
              }
    CHECK(same);
  }
  // The pack's copies: a card of an added suit twice, never three times; others once.
  {
    const auto c = cards_of({"As", "Kd", "As", "As"});
    CHECK(!check_cards_in_pack(c.data(), 3, 0, kSpades));
    const CardIssue third = check_cards_in_pack(c.data(), 4, 7, kSpades);
    CHECK(third.kind == CardIssueKind::kDuplicate && third.position == 3 && third.first_position == 0 &&
          third.second_position == 2 && third.item == 7);
    const CardIssue plain = check_cards_in_pack(c.data(), 3, 0, 0);
    CHECK(plain.kind == CardIssueKind::kDuplicate && plain.position == 2 && plain.second_position == -1);
    const auto d = cards_of({"Kd", "Kd"});
    CHECK(check_cards_in_pack(d.data(), 2, 0, kSpades).kind == CardIssueKind::kDuplicate);
  }
  // Batches: a repeated card of an added suit is evaluated, a third copy or another suit's repeat is not.
  {
    const auto rows = cards_of({"As", "Ks", "Qs", "Js", "Ts", "9s", "9s", "9h", "9d", "9c"});
    std::int32_t out[2] = {0, 0};
    CHECK(!evaluate_batch(rows.data(), 2, 5, Wheel::Low, out, Parallel{}, kSpades));
    CHECK(Strength(out[0]) == make_strength(kStraightFlush, 14, 13, 12, 11, 10));
    CHECK(Strength(out[1]) == make_strength(kFiveOfAKind, 9));
    const CardIssue issue = evaluate_batch(rows.data(), 2, 5, Wheel::Low, out, Parallel{}, 0);
    CHECK(issue.kind == CardIssueKind::kDuplicate && issue.item == 1);
  }
  // Rules: at most two added suits; each seats one more player.
  {
    RulesSpec rules;
    rules.extra_suits = kClubsHearts;
    CHECK(validate_rules(rules) == nullptr);
    CHECK(max_players(rules) == 6);
    rules.extra_suits = 0x7;
    CHECK(std::string(validate_rules(rules)) == "extra_suits");
    rules.extra_suits = 0x10;
    CHECK(std::string(validate_rules(rules)) == "extra_suits");
    rules.extra_suits = kSpades;
    CHECK(max_players(rules) == 5);
    CHECK(max_players(RulesSpec{}) == 4);
  }
  // A five-player round from the 65-card pack (spades twice): player 0 holds five aces in its back, the
  // others the rest of the pack in order. A sixth player, or a spade held three times, is refused.
  {
    RulesSpec rules;
    rules.extra_suits = kSpades;
    rules.royalty[kMiddle][kFiveOfAKind] = 20;
    rules.royalty[kBack][kFiveOfAKind] = 10;
    std::vector<std::uint8_t> pool;
    for (int c = 0; c < 52; ++c) pool.push_back(static_cast<std::uint8_t>(c));
    for (int r = 0; r < 13; ++r) pool.push_back(static_cast<std::uint8_t>(make_card(r, 3)));
    std::sort(pool.begin(), pool.end());
    // Player 0: 2c 2d 2h / 2s 2s 3c 3d 3h / Ac Ad Ah As As (trips, a full house, five of a kind).
    std::vector<std::uint8_t> table(pool.begin(), pool.begin() + 8);
    for (const char* t : {"Ac", "Ad", "Ah", "As", "As"}) table.push_back(static_cast<std::uint8_t>(parse_card_token(t)));
    table.insert(table.end(), pool.begin() + 8, pool.end() - 5);
    CHECK(table.size() == 65);
    PlayerInput in[6];
    for (int p = 0; p < 5; ++p) in[p].cards = table.data() + 13 * p;
    RoundResult result;
    CHECK(!settle_round(in, 5, rules, nullptr, &result));
    CHECK(result.num_pairs == 10 && !result.facts[0].foul);
    CHECK(result.facts[0].strength[kBack] == make_strength(kFiveOfAKind, 14) && result.facts[0].royalty[kBack] == 10);
    CHECK(category_of(result.facts[0].strength[kMiddle]) == kFullHouse);
    std::int64_t sum = 0;
    for (int p = 0; p < 5; ++p) sum += result.net[p];
    CHECK(sum == 0);
    CHECK(settle_round(in, 5, RulesSpec{}, nullptr, &result).status == SettleStatus::kBadPlayerCount);
    table[12] = table[13];  // player 0's last ace becomes a third copy of player 1's first card
    const auto held = table[13];
    table[13 + 1] = held;
    const SettleError error = settle_round(in, 5, rules, nullptr, &result);
    CHECK(error.status == SettleStatus::kBadCards && error.cards.card == held);
    CHECK(error.cards.second_position >= 0 || copies_in_pack(held, kSpades) == 1);
  }
  // Naturals of more cards: six of a kind needs two added suits' copies, two fives and trips likewise.
  {
    RulesSpec rules;
    rules.extra_suits = kClubsHearts;
    const auto six = cards_of({"Ac", "Ac", "Ah", "Ah", "Ad", "As", "2c", "3d", "4h", "5s", "6c", "7d", "8h"});
    CHECK(holds_natural(NaturalKind::kSixOfAKind, six.data(), rules));
    CHECK(!holds_natural(NaturalKind::kSevenOfAKind, six.data(), rules));
    CHECK(!holds_natural(NaturalKind::kSixPairs, six.data(), rules));
    const auto fives = cards_of({"Ac", "Ac", "Ah", "Ah", "Ad", "Kc", "Kc", "Kh", "Kh", "Ks", "2c", "2d", "2h"});
    CHECK(holds_natural(NaturalKind::kTwoFivesAndTrips, fives.data(), rules));
    CHECK(!holds_natural(NaturalKind::kSixOfAKind, fives.data(), rules));
    RulesSpec plain;
    CHECK(!holds_natural(NaturalKind::kTwoFivesAndTrips, fives.data(), plain));  // not cards of a 52-card deck
  }
  // Arranging a hand with a card twice: the strongest setting puts five of a kind in the back.
  {
    RulesSpec rules;
    rules.extra_suits = kSpades;
    const auto hand = cards_of({"As", "As", "Ah", "Ad", "Ac", "2c", "3d", "4h", "6s", "7c", "9d", "Jh", "Kc"});
    Arrangement a;
    CHECK(!strongest_arrangement(hand.data(), rules, &a));
    CHECK(category_of(a.strength[2]) == kFiveOfAKind);
    CHECK(strongest_arrangement(hand.data(), RulesSpec{}, &a).kind == CardIssueKind::kDuplicate);
  }
}


// jokers (RULES.md 1.2): the oracle is every substitution, each joker any of the 52 cards.
static Strength exhaustive_joker_strength(const std::uint8_t* row, int width, Wheel wheel) {
  int place[2] = {-1, -1};
  int jokers = 0;
  for (int k = 0; k < width; ++k) {
    if (is_joker(row[k])) place[jokers++] = k;
  }
  std::uint8_t trial[5];
  std::memcpy(trial, row, static_cast<std::size_t>(width));
  Strength best = 0;
  for (int a = 0; a < 52; ++a) {
    trial[place[0]] = static_cast<std::uint8_t>(a);
    for (int b = 0; b < (jokers == 2 ? 52 : 1); ++b) {
      if (jokers == 2) trial[place[1]] = static_cast<std::uint8_t>(b);
      best = std::max(best, width == 5 ? evaluate5_in_pack(trial, wheel) : evaluate3(trial));
    }
  }
  return best;
}

static void test_jokers() {
  // Every 5-card row of four distinct cards and a joker (a sample: every 5th), and of three and two jokers
  // (every 37th), against every substitution; every front with one or two jokers; both wheels.
  {
    bool same = true;
    long n = 0;
    std::uint8_t h[5];
    for (int a = 0; a < 52; ++a)
      for (int b = a + 1; b < 52; ++b)
        for (int c = b + 1; c < 52; ++c) {
          for (int d = c + 1; d < 53; ++d) {  // d == 52: two jokers
            if (++n % (d == 52 ? 7 : 5) != 0) continue;
            h[0] = static_cast<std::uint8_t>(a);
            h[1] = static_cast<std::uint8_t>(b);
            h[2] = static_cast<std::uint8_t>(c);
            h[3] = static_cast<std::uint8_t>(d == 52 ? kJokerX2 : d);
            h[4] = kJokerX1;
            const Wheel w = n % 2 == 0 ? Wheel::Low : Wheel::Second;
            same = same && evaluate_with_jokers(h, 5, w) == exhaustive_joker_strength(h, 5, w);
          }
        }
    CHECK(same);
    for (int a = 0; a < 52; ++a)
      for (int b = 0; b < 53; ++b) {
        h[0] = static_cast<std::uint8_t>(a);
        h[1] = static_cast<std::uint8_t>(b == 52 ? kJokerX2 : b);  // a card twice is allowed here
        h[2] = kJokerX1;
        same = same && evaluate_with_jokers(h, 3, Wheel::Low) == exhaustive_joker_strength(h, 3, Wheel::Low);
      }
    CHECK(same);
  }
  // Known values: a joker makes trips of a pair in front, two make trips of any card; five of a kind with
  // one deck; the best straight flush; the wheel counts under "second".
  {
    const auto front = cards_of({"X1", "Qh", "Qd"});
    CHECK(evaluate_with_jokers(front.data(), 3, Wheel::Low) == make_strength(kThreeOfAKind, 12));
    const auto two = cards_of({"X2", "5c", "X1"});
    CHECK(evaluate_with_jokers(two.data(), 3, Wheel::Low) == make_strength(kThreeOfAKind, 5));
    const auto five = cards_of({"7s", "7h", "7d", "7c", "X1"});
    CHECK(evaluate_with_jokers(five.data(), 5, Wheel::Low) == make_strength(kFiveOfAKind, 7));
    const auto royal = cards_of({"As", "Ks", "X2", "Js", "X1"});
    CHECK(evaluate_with_jokers(royal.data(), 5, Wheel::Low) == make_strength(kStraightFlush, 14, 13, 12, 11, 10));
    const auto wheel = cards_of({"Ah", "2h", "3h", "X1", "9c"});
    CHECK(evaluate_with_jokers(wheel.data(), 5, Wheel::Low) == make_strength(kOnePair, 14, 9, 3, 2));
    const auto wheel2 = cards_of({"Ah", "2c", "3h", "X1", "5d"});
    CHECK(evaluate_with_jokers(wheel2.data(), 5, Wheel::Low) == make_strength(kStraight, 5, 4, 3, 2, 1));
    CHECK(evaluate_with_jokers(wheel2.data(), 5, Wheel::Second) == make_strength(kStraight, 14, 5, 4, 3, 2));
    // Two jokers with three cards of one suit: three aces of spades, a flush above A-K-Q-J-2.
    const auto full = cards_of({"As", "X1", "X2", "Ks", "2s"});
    CHECK(evaluate_with_jokers(full.data(), 5, Wheel::Low) == make_strength(kFlush, 14, 14, 14, 13, 2));
    // Three aces of one suit (a copy of a card of an added suit, and a joker): a flush above the trips.
    const auto copies = cards_of({"As", "As", "X1", "Ks", "Qs"});
    CHECK(evaluate5_in_pack(cards_of({"As", "As", "As", "Ks", "Qs"}).data(), Wheel::Low) ==
          make_strength(kFlush, 14, 14, 14, 13, 12));
    CHECK(evaluate_with_jokers(copies.data(), 5, Wheel::Low) == make_strength(kFlush, 14, 14, 14, 13, 12));
  }
  // The pack check: each joker the pack has, once; a joker it lacks is out of range.
  {
    const auto c = cards_of({"X1", "As", "X2"});
    CHECK(!check_cards_in_pack(c.data(), 3, 0, make_pack(0, 2)));
    const CardIssue lacking = check_cards_in_pack(c.data(), 3, 4, make_pack(0, 1));
    CHECK(lacking.kind == CardIssueKind::kOutOfRange && lacking.position == 2 && lacking.card == kJokerX2 && lacking.item == 4);
    CHECK(check_cards_in_pack(c.data(), 1, 0, 0).kind == CardIssueKind::kOutOfRange);
    const auto twice = cards_of({"X1", "As", "X1"});
    const CardIssue again = check_cards_in_pack(twice.data(), 3, 0, make_pack(1u << 3, 2));
    CHECK(again.kind == CardIssueKind::kDuplicate && again.position == 2 && again.first_position == 0);
    std::uint8_t out[3];
    std::size_t n = 0;
    CHECK(parse_card_text("X2 🃏 🃏 x1", out, 3, &n).ok && n == 4);
    CHECK(out[0] == kJokerX2 && out[1] == kJokerX1 && out[2] == kJokerX2);
    CHECK(parse_card_token("🃏") == kJokerX1 && parse_card_token("x2") == kJokerX2 && parse_card_token("X3") < 0);
  }
  // Batches: joker rows go to the checked path and take their best substitution; without jokers in the
  // pack they are refused.
  {
    const auto rows = cards_of({"As", "Ks", "Qs", "X1", "Ts", "9s", "9h", "9d", "X2", "X1", "2c", "X1", "2d"});
    std::int32_t out5[2] = {0, 0};
    CHECK(!evaluate_batch(rows.data(), 2, 5, Wheel::Low, out5, Parallel{}, make_pack(0, 2)));
    CHECK(Strength(out5[0]) == make_strength(kStraightFlush, 14, 13, 12, 11, 10));
    CHECK(Strength(out5[1]) == make_strength(kFiveOfAKind, 9));
    std::int32_t out3[1] = {0};
    CHECK(!evaluate_batch(rows.data() + 10, 1, 3, Wheel::Low, out3, Parallel{}, make_pack(0, 1)));
    CHECK(Strength(out3[0]) == make_strength(kThreeOfAKind, 2));
    const CardIssue issue = evaluate_batch(rows.data(), 2, 5, Wheel::Low, out5, Parallel{}, make_pack(0, 1));
    CHECK(issue.kind == CardIssueKind::kOutOfRange && issue.item == 1 && issue.card == kJokerX2);
    CHECK(evaluate_batch(rows.data(), 2, 5, Wheel::Low, out5, Parallel{}, 0).kind == CardIssueKind::kOutOfRange);
  }
  // RULES.md 1.2's example: X1 as Qs in front (+1); X1 as 7s in the back, a five of a kind (+1).
  {
    RulesSpec rules;
    rules.jokers = 1;
    rules.royalty[kBack][kFiveOfAKind] = 10;
    RoundResult r = settle_texts({"X1 Qh Qd / 9s 9h 9d 4c 4d / 7s 7h 7d 7c 2s", "Kc Kd 2c / 8c 8d 8h 3c 3d / As Ks Qs Js Ts"}, rules);
    CHECK(r.net[0] == 1 && r.pairs[0].rows[0] == 1 && r.pairs[0].rows[2] == -1);
    CHECK(r.facts[0].joker_card[0] == parse_card_token("Qs") && r.facts[0].joker_card[1] == -1);
    CHECK(r.facts[0].strength[kFront] == make_strength(kThreeOfAKind, 12) && r.facts[1].joker_card[0] == -1);
    r = settle_texts({"Qh Qd 2s / 9s 9h 9d 4c 4d / 7s 7h 7d 7c X1", "Kc Kd 2c / 8c 8d 8h 3c 3d / As Ks Qs Js Ts"}, rules);
    CHECK(r.pairs[0].rows[0] == -1 && r.pairs[0].rows[1] == 1 && r.pairs[0].rows[2] == 1);
    CHECK(r.facts[0].joker_card[0] == parse_card_token("7s") && r.facts[0].royalty[kBack] == 10);
    CHECK(r.net[0] == 10);  // the back's royalty of 10 replaces its unit; the front's lost unit: 10 + 1 - 1
    // Under jokers = 0 the hand is refused, naming the joker.
    const auto cards = hand_of("X1 Qh Qd / 9s 9h 9d 4c 4d / 7s 7h 7d 7c 2s");
    PlayerInput in[2];
    const auto other = hand_of("Kc Kd 2c / 8c 8d 8h 3c 3d / As Ks Qs Js Ts");
    in[0].cards = cards.data();
    in[1].cards = other.data();
    const SettleError error = settle_round(in, 2, RulesSpec{}, nullptr, &r);
    CHECK(error.status == SettleStatus::kBadCards && error.cards.card == kJokerX1 && error.cards.position == 0);
  }
  // The suit tie-break sees the substitutes, and a joker takes the card that wins it: trips of kings each,
  // X1 and X2 both a king of the highest suit (a copy of a held card).
  {
    RulesSpec rules;
    rules.jokers = 2;
    rules.suit_tiebreak = SuitTiebreak::kHighestCard;
    const std::vector<const char*> hands = {"X1 Kh Kd / 9s 9h 9d 4c 4d / 7s 7h 7d 7c 2s",
                                            "Kc Ks X2 / 6c 6d 6s 3h 3d / Qc Jc Tc 9c 8c"};
    RoundResult r = settle_texts(hands, rules);
    CHECK(r.facts[0].joker_card[0] == parse_card_token("Ks") && r.facts[1].joker_card[1] == parse_card_token("Ks"));
    CHECK(r.pairs[0].rows[0] == -1);  // Ks Kh Kd under Ks Ks Kc: the second card decides
    rules.suit_value = {3, 2, 1, 0};  // "cdhs": clubs highest
    r = settle_texts(hands, rules);
    CHECK(r.facts[0].joker_card[0] == parse_card_token("Kc") && r.facts[1].joker_card[1] == parse_card_token("Kc"));
    CHECK(r.pairs[0].rows[0] == -1);  // Kc Kd Kh under Kc Kc Ks
    rules.suit_tiebreak = SuitTiebreak::kOff;
    r = settle_texts(hands, rules);
    CHECK(r.pairs[0].rows[0] == 0 && r.facts[0].joker_card[0] == parse_card_token("Ks"));
  }
  // Naturals: a joker completes a dragon; a declared hand reports the natural's substitution.
  {
    RulesSpec rules;
    rules.jokers = 1;
    rules.num_naturals = 2;
    rules.natural_kind[0] = NaturalKind::kSixPairs;
    rules.natural_kind[1] = NaturalKind::kDragon;
    rules.natural_units[0] = 3;
    rules.natural_units[1] = 13;
    const auto dragon = cards_of({"2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd", "Qh", "X1", "As"});
    CHECK(holds_natural(NaturalKind::kDragon, dragon.data(), rules));
    CHECK(detect_natural(dragon.data(), rules) == 1);
    CHECK(!holds_natural(NaturalKind::kDragon, dragon.data(), RulesSpec{}));
    RoundResult r = settle_texts({"2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh X1 As", "Kc Kd 2d / 4c 4d 4s 3c 3h / 5c 5d 5h Kh Ks"},
                                 rules, {true, false});
    CHECK(r.facts[0].natural == 1 && r.net[0] == 13 && r.facts[0].joker_card[0] == parse_card_token("Ks"));
    const auto pairs = cards_of({"2c", "2d", "3c", "3d", "4c", "4d", "5c", "5d", "6c", "6d", "7c", "X1", "As"});
    CHECK(detect_natural(pairs.data(), rules) == 0);
    CHECK((held_naturals(pairs.data(), rules) & (1u << static_cast<int>(NaturalKind::kSixPairs))) != 0);
  }
  // Arranging: jokers are cards to place, each row worth its best substitution.
  {
    RulesSpec rules;
    rules.jokers = 2;
    const auto hand = cards_of({"X1", "X2", "Ah", "Ad", "Ac", "2c", "3d", "4h", "6s", "7c", "9d", "Jh", "Kc"});
    Arrangement a;
    CHECK(!strongest_arrangement(hand.data(), rules, &a));
    CHECK(category_of(a.strength[2]) == kFiveOfAKind && vector_value(a.strength[2], 0) == 14);
    CHECK(strongest_arrangement(hand.data(), RulesSpec{}, &a).kind == CardIssueKind::kOutOfRange);
  }
}


// The strict JSON Lines reader of the service's fast path: what it reads, what it leaves to the general
// path (false), the net lines it writes, and that no input (truncated or mutated) reads out of bounds.
// The strengths each pack's rows can have: one deck gives the 7,462 five-card and 455 three-card classes
// under either wheel; an added suit adds the 13 fives of a kind, 2,860 flushes with one pair and 858 with
// two pairs; jokers add flushes holding three of a kind, which no pack without jokers holds.
static void test_pack_strengths() {
  for (const Wheel w : {Wheel::Low, Wheel::Second}) {
    CHECK(pack_strengths(5, w, 0).size() == 7462);
    CHECK(pack_strengths(3, w, 0).size() == 455);
    CHECK(pack_strengths(5, w, make_pack(0x8u, 0)).size() == 7462 + 13 + 2860 + 858);
    CHECK(pack_strengths(3, w, make_pack(0x3u, 2)) == pack_strengths(3, w, 0));
  }
  const Strength trips_flush = make_strength(kFlush, 14, 14, 14, 13, 2);
  const auto has = [](const std::vector<Strength>& all, Strength s) {
    return std::binary_search(all.begin(), all.end(), s);
  };
  CHECK(!has(pack_strengths(5, Wheel::Low, make_pack(0x3u, 0)), trips_flush));
  CHECK(has(pack_strengths(5, Wheel::Low, make_pack(0, 2)), trips_flush));
  CHECK(has(pack_strengths(5, Wheel::Low, make_pack(0x8u, 1)), trips_flush));
  CHECK(has(pack_strengths(5, Wheel::Low, make_pack(0, 1)), make_strength(kFiveOfAKind, 7)));
  CHECK(is_row_strength(trips_flush, 5, Wheel::Low));
  CHECK(!is_row_strength(trips_flush, 3, Wheel::Low));
  CHECK(!is_row_strength(make_strength(kFlush, 14, 14, 14, 14, 2), 5, Wheel::Low));
  CHECK(!is_row_strength(make_strength(kStraight, 5, 4, 3, 2, 1), 5, Wheel::Second));
  CHECK(is_row_strength(make_strength(kStraight, 14, 5, 4, 3, 2), 5, Wheel::Second));
  // Every pack's strengths are evaluations of its own rows, and a bigger pack holds all of a smaller one's.
  const std::vector<Strength> small = pack_strengths(5, Wheel::Low, make_pack(0x1u, 1));
  const std::vector<Strength> big = pack_strengths(5, Wheel::Low, make_pack(0x3u, 2));
  CHECK(std::includes(big.begin(), big.end(), small.begin(), small.end()));
  // row_strengths is the union over every pack the rules allow (up to two added suits, up to two jokers).
  for (const int width : {3, 5})
    for (const Wheel w : {Wheel::Low, Wheel::Second}) {
      std::set<Strength> every;
      for (unsigned suits = 0; suits < 16; ++suits) {
        if (detail::popcount32(suits) > 2) continue;
        for (int jokers = 0; jokers <= kMaxJokers; ++jokers) {
          for (const Strength s : pack_strengths(width, w, make_pack(suits, jokers))) every.insert(s);
        }
      }
      CHECK(std::vector<Strength>(every.begin(), every.end()) == row_strengths(width, w));
    }
  CHECK(row_strengths(4, Wheel::Low).empty());
}

// Every round the format allows, and the rest left round by round: a mix of player counts and rules,
// an escaped id, a declaration, one round left (a card twice) between two read.
static void test_scan_round_lines() {
  const std::string a = R"({"front":[0,1,2],"middle":[3,4,5,6,7],"back":[8,9,10,11,12]})";
  const std::string b = R"({"name":"B\u00f6","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":["As","Ah","Ad","Ac","8h"]})";
  const std::string c = R"({"cards":[13,14,15,16,17,18,19,20,21,22,23,24,25],"declare_natural":false})";
  const std::string body = "{\"id\":\"q\\\"\\u00e9\",\"rules\":\"x\",\"players\":[" + a + "," + b + "," + c + "]}\n" +
                           "\n{\"players\":[" + a + "," + a + "]}\n" +
                           "{\"rules\":\"x\",\"note\":[1,{\"k\":null}],\"players\":[" + a + "," + b + "],\"stakes\":[[1,2],[2,1]]}";
  RoundScan scan;
  scan_round_lines(body, 5, 6, true, false, &scan);
  CHECK(scan.rounds.size() == 3);
  CHECK(scan.rounds[0].read && scan.rounds[0].players == 3 && scan.rounds[0].rules == 0);
  CHECK(scan.rounds[0].id.decoded && scan.strings.substr(scan.rounds[0].id.begin, scan.rounds[0].id.length) == "q\"\xC3\xA9");
  CHECK(scan.rounds[0].name_decoded[1] && scan.rounds[0].line == 0);
  // A card twice is read: the core checks the cards against the rules' pack when the round is settled.
  CHECK(scan.rounds[1].read && scan.rounds[1].line == 2 && scan.rounds[1].players == 2);
  CHECK(scan.rounds[2].read && scan.rounds[2].players == 2 && scan.rounds[2].rules == 0);
  CHECK(scan.rounds[2].id.kind == RoundIdKind::kPosition && scan.rounds[2].id.value == 7);
  CHECK(scan.rounds[2].stakes != ScannedRound::kNone && scan.stakes[scan.rounds[2].stakes + 1] == 2);
  CHECK(scan.rules.size() == 1 && body.substr(scan.rules[0].first, scan.rules[0].second) == "\"x\"");
  const RulesSpec pagat;
  std::string out;
  std::vector<std::size_t> ends;
  settle_scanned_net(body, &scan, {&pagat}, pagat, Parallel{}, &out, &ends);
  CHECK(ends.size() == 3 && ends[0] == ends[1] && ends[2] == out.size());
  CHECK(!scan.rounds[1].read);  // the card held twice, refused by the core under one deck: left
  const std::string head = "{\"id\":\"q\\\"\xC3\xA9\",\"net\":[";
  CHECK(out.compare(0, head.size(), head) == 0);
  CHECK(out.compare(ends[1], 14, "{\"id\":7,\"net\":") == 0);
  // Rules that could not be resolved leave their rounds.
  scan_round_lines(body, 1, 6, true, false, &scan);
  out.clear();
  settle_scanned_net(body, &scan, {nullptr}, pagat, Parallel{}, &out, &ends);
  CHECK(out.empty() && !scan.rounds[0].read && !scan.rounds[2].read);
  // ascii_output leaves the id that is not ASCII.
  scan_round_lines(body, 1, 6, false, true, &scan);
  CHECK(!scan.rounds[0].read && scan.rounds[2].read && scan.rounds[2].rules == -1);
  // The jokers X1 and X2 are read, in text and as codes, and the rules' pack decides: settled under rules
  // with two jokers, left under one deck. The joker symbol, whose joker depends on the whole hand, is left.
  const std::string jokers = R"({"players":[{"front":"X1 As Ks","middle":"2c 3c 4c 5c 7d","back":"2d 3d 4d 5d 7h"},)"
                             R"({"front":["X2","Ah","Kh"],"middle":"2h 3h 4h 5h 7s","back":[24,25,26,28,29]}]})"
                             "\n"
                             R"({"players":[{"front":"ð As Ks","middle":"2c 3c 4c 5c 7d","back":"2d 3d 4d 5d 7h"},)"
                             R"({"front":"Qh Jh Th","middle":"2h 3h 4h 5h 7s","back":"8c 8d 8h 9c 9d"}]})";
  scan_round_lines(jokers, 1, 6, false, false, &scan);
  CHECK(scan.rounds.size() == 2 && scan.rounds[0].read && !scan.rounds[1].read);
  CHECK(scan.cards[scan.rounds[0].cards] == kJokerX1 && scan.cards[scan.rounds[0].cards + 13] == kJokerX2);
  RulesSpec ghost;
  ghost.jokers = 2;
  settle_scanned_net(jokers, &scan, {}, ghost, Parallel{}, &out, &ends);
  CHECK(scan.rounds[0].read);
  scan_round_lines(jokers, 1, 6, false, false, &scan);
  settle_scanned_net(jokers, &scan, {}, pagat, Parallel{}, &out, &ends);
  CHECK(!scan.rounds[0].read);
}

static void test_round_lines() {
  const std::string a = R"({"front":[0,1,2],"middle":[3,4,5,6,7],"back":[8,9,10,11,12]})";
  const std::string b = R"({"name":"Bo","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":["As","Ah","Ad","Ac","8h"]})";
  const std::string body = "\xEF\xBB\xBF{\"id\":7,\"players\":[" + a + "," + b + "]}\r\n\n \v\f\n" +
                           "{ \"players\" : [ " + a + " , " + b + " ] , \"id\" : \"r-2\" }\n" +
                           "{\"players\":[" + a + "," + b + "]}";
  RoundLines lines;
  CHECK(read_round_lines(body, 10, 4, &lines));
  CHECK(lines.rounds == 3 && lines.players == 2 && !lines.more);
  CHECK(lines.cards.size() == 3u * 2u * 13u);
  for (int k = 0; k < 13; ++k) CHECK(lines.cards[static_cast<std::size_t>(k)] == k);
  const auto want_b = cards_of({"Ks", "Kh", "Kd", "Qs", "Qh", "Qd", "Qc", "8s", "As", "Ah", "Ad", "Ac", "8h"});
  CHECK(std::equal(want_b.begin(), want_b.end(), lines.cards.begin() + 13));
  CHECK(std::equal(lines.cards.begin(), lines.cards.begin() + 26, lines.cards.begin() + 52));
  CHECK(lines.ids[0].kind == RoundIdKind::kInteger && lines.ids[0].value == 7);
  CHECK(lines.ids[1].kind == RoundIdKind::kString && body.substr(lines.ids[1].begin, lines.ids[1].length) == "r-2");
  CHECK(lines.ids[2].kind == RoundIdKind::kPosition && lines.ids[2].value == 3);  // blank lines not counted

  // The net lines: the second player wins every row (and both are legal), so the first pays.
  std::vector<std::int64_t> net(6);
  CHECK(!settle_batch(lines.cards.data(), 3, 2, RulesSpec{}, BatchInputs{}, BatchOutputs{net.data()}, Parallel{}));
  CHECK(net[0] < 0 && net[0] == -net[1] && net[2] == net[0] && net[4] == net[0]);
  std::string out;
  write_net_lines(body, lines, net.data(), &out);
  const std::string n0 = std::to_string(net[0]), n1 = std::to_string(net[1]);
  CHECK(out == "{\"id\":7,\"net\":[" + n0 + "," + n1 + "]}\n{\"id\":\"r-2\",\"net\":[" + n0 + "," + n1 +
                   "]}\n{\"id\":3,\"net\":[" + n0 + "," + n1 + "]}\n");
  std::string settled;
  bool more = true;
  CHECK(settle_net_lines(body, RulesSpec{}, 10, 4, Parallel{}, &settled, &more));
  CHECK(settled == out && !more);

  // Card text in other spellings reads to the same codes (the table's form and the general parser's).
  const std::string spellings = "{\"players\":[" + a + "," +
                                R"({"front":"ks,kh;kd","middle":"QsQhQdQc8s","back":" A\u2660 ah,Ad Ac  8H "})" + "]}";
  CHECK(!read_round_lines(spellings, 10, 4, &lines));  // the escape: the general path's
  const std::string symbols = "{\"players\":[" + a + "," +
                              "{\"front\":\"ks,kh;kd\",\"middle\":\"QsQhQdQc8s\",\"back\":\" A\xE2\x99\xA0 ah,Ad Ac  8H \"}]}";
  CHECK(read_round_lines(symbols, 10, 4, &lines));
  CHECK(std::equal(want_b.begin(), want_b.end(), lines.cards.begin() + 13));

  // max_rounds: the rounds past it are not read, only noted.
  CHECK(read_round_lines(body, 2, 4, &lines));
  CHECK(lines.rounds == 2 && lines.more);
  CHECK(settle_net_lines(body + "\nnot json", RulesSpec{}, 3, 4, Parallel{}, &settled, &more));
  CHECK(more);
  // The limit on players: 2 players pass max_players 2, not a limit below the format's 2.
  CHECK(read_round_lines(body, 10, 2, &lines));
  CHECK(!read_round_lines(body, 10, 1, &lines));
  CHECK(!read_round_lines(body, 0, 4, &lines));

  // Ids at the ends of int64, and -0 (the integer 0).
  CHECK(read_round_lines("{\"id\":-9223372036854775808,\"players\":[" + a + "," + b + "]}", 1, 4, &lines));
  CHECK(lines.ids[0].value == std::numeric_limits<std::int64_t>::min());
  out.clear();
  write_net_lines("", lines, net.data(), &out);
  CHECK(out.compare(0, 27, "{\"id\":-9223372036854775808,") == 0);
  CHECK(read_round_lines("{\"id\":9223372036854775807,\"players\":[" + a + "," + b + "]}", 1, 4, &lines));
  CHECK(lines.ids[0].value == std::numeric_limits<std::int64_t>::max());
  CHECK(read_round_lines("{\"id\":-0,\"players\":[" + a + "," + b + "]}", 1, 4, &lines));
  CHECK(lines.ids[0].kind == RoundIdKind::kInteger && lines.ids[0].value == 0);

  // What the general path must answer: every one of these is "not simple".
  const std::string two = a + "," + b;
  const std::string c = R"({"front":[13,14,15],"middle":[16,17,18,19,20],"back":[21,22,23,24,25]})";
  const std::vector<std::string> refused = {
      "",
      "\n \n",
      "{\"players\":[" + a + "]}",                                      // one player
      "{\"players\":[" + two + "," + c + "," + c + "]}",                // a card twice across hands
      "{\"id\":9223372036854775808,\"players\":[" + two + "]}",         // past int64
      "{\"id\":-9223372036854775809,\"players\":[" + two + "]}",
      "{\"id\":1.0,\"players\":[" + two + "]}",
      "{\"id\":1e3,\"players\":[" + two + "]}",
      "{\"id\":01,\"players\":[" + two + "]}",
      "{\"id\":true,\"players\":[" + two + "]}",
      "{\"id\":null,\"players\":[" + two + "]}",
      "{\"id\":\"a\\\"b\",\"players\":[" + two + "]}",                  // an escape in the id
      "{\"id\":\"caf\xC3\xA9\",\"players\":[" + two + "]}",             // non-ASCII id
      "{\"id\":\"a\tb\",\"players\":[" + two + "]}",                    // a raw control character
      "{\"id\":1,\"id\":2,\"players\":[" + two + "]}",                  // a key twice
      "{\"rules\":\"pagat\",\"players\":[" + two + "]}",                // per-round rules
      "{\"stakes\":null,\"players\":[" + two + "]}",
      "{\"pl\\u0061yers\":[" + two + "]}",
      "{\"players\":[" + two + "]} x",                                  // trailing text
      "{\"players\":[" + two + "]}\f",                                  // FF is not JSON white space
      "{\"players\":[" + two + "]",
      "[{\"players\":[" + two + "]}]",
      "{\"players\":[" + two + "]}\n{\"players\":[" + two + "," + c + "]}",  // player counts differ
      "{\"players\":[" + two + "," + c + "]}\n{\"players\":[" + two + "]}",
      "{\"players\":[" + a + "," + R"({"name":"P1","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"name":"  ","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"name":"","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh Kd Jc","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh X1","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh Zd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh Kh","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":[44,45,52],"middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":[44,45,-0],"middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":[44,45,true],"middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":[44,45,46,47],"middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s"})" + "]}",
      "{\"players\":[" + a + "," + R"({"front":"Ks Kh Kd","front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"cards":"Ks Kh Kd Qs Qh Qd Qc 8s As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + R"({"surrender":true,"front":"Ks Kh Kd","middle":"Qs Qh Qd Qc 8s","back":"As Ah Ad Ac 8h"})" + "]}",
      "{\"players\":[" + a + "," + "{\"front\":\"Ks Kh Kd\",\"middle\":\"Qs Qh Qd Qc 8s\",\"back\":\"As Ah Ad Ac 8\xFF\"}" + "]}",
  };
  for (const std::string& text : refused) {
    const bool read = read_round_lines(text, 10, 4, &lines);
    CHECK(!read);
    if (read) std::fprintf(stderr, "  read: %s\n", text.c_str());
  }
  // A limit above the format's 6 is the format's: seven players are refused (with any cards).
  std::string seven = "{\"players\":[" + a;
  for (int k = 0; k < 6; ++k) seven += "," + a;
  CHECK(!read_round_lines(seven + "]}", 10, 99, &lines));
  // Three players past a limit of 2.
  CHECK(!read_round_lines("{\"players\":[" + two + "," + c + "]}", 10, 2, &lines));
  CHECK(read_round_lines("{\"players\":[" + two + "," + c + "]}", 10, 3, &lines));
  // Rules whose pack is not one plain deck go the general way.
  RulesSpec jokers;
  jokers.jokers = 1;
  CHECK(!settle_net_lines(body, jokers, 10, 4, Parallel{}, &settled, &more));

  // Hostile input: every prefix, and single-byte changes everywhere, read within bounds (ASan checks).
  const std::string line = "{\"id\":\"x\",\"players\":[" + two + "," + c + "]}\n";
  for (std::size_t k = 0; k <= line.size(); ++k) {
    (void)read_round_lines(std::string_view(line.data(), k), 10, 6, &lines);
  }
  const char replacements[] = {'\0', '"', '\\', '[', ']', '{', '}', ',', ':', '-', '0', '9', ' ', '\n', '\xFF', 'e'};
  std::size_t read_count = 0;
  for (std::size_t k = 0; k < line.size(); ++k) {
    for (const char r : replacements) {
      std::string mutated = line;
      mutated[k] = r;
      if (read_round_lines(mutated, 10, 6, &lines)) {
        ++read_count;
        // Whatever reads, reads as a whole round of 3 players with distinct cards 0..51.
        CHECK(lines.players >= 2 && lines.players <= 3 && lines.rounds >= 1);
        for (const std::uint8_t card : lines.cards) CHECK(card < kDeckSize);
      }
    }
  }
  CHECK(read_count > 0);  // white space and some digits change nothing
}

static std::string hex_of(const fair::Digest& digest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const std::uint8_t byte : digest) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

// SHA-256 and HMAC-SHA256 on the published test vectors (FIPS 180-4's examples, RFC 4231 case 1 and 6),
// and the first deal vector of tests/data/fair-vectors.json.
static void test_fair() {
  auto hash = [](const std::string& text) {
    return hex_of(fair::sha256(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  };
  CHECK(hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hash(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  const std::vector<std::uint8_t> key(20, 0x0b);
  const std::string hi = "Hi There";
  CHECK(hex_of(fair::hmac_sha256(key.data(), key.size(), reinterpret_cast<const std::uint8_t*>(hi.data()),
                                 hi.size())) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  const std::vector<std::uint8_t> long_key(131, 0xaa);
  const std::string big = "Test Using Larger Than Block-Size Key - Hash Key First";
  CHECK(hex_of(fair::hmac_sha256(long_key.data(), long_key.size(), reinterpret_cast<const std::uint8_t*>(big.data()),
                                 big.size())) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  std::vector<std::uint8_t> seed(32);
  for (std::size_t k = 0; k < 32; ++k) seed[k] = static_cast<std::uint8_t>(k);
  const std::string start = std::string("chinese-poker/deal/v1") + '\x02' + '\x05' + "alice" + '\x03' + "bob";
  const std::vector<std::uint8_t> prefix(start.begin(), start.end());
  std::vector<std::uint8_t> pack(52);
  for (std::size_t c = 0; c < 52; ++c) pack[c] = static_cast<std::uint8_t>(c);
  std::uint8_t out[52];
  fair::deal(seed.data(), seed.size(), prefix, 0, pack, 52, out);
  const std::uint8_t seat0[13] = {15, 12, 47, 25, 46, 16, 42, 17, 40, 13, 34, 38, 4};
  CHECK(std::memcmp(out, seat0, 13) == 0);
  std::set<int> seen(out, out + 52);
  CHECK(seen.size() == 52);
  // The processor's SHA extensions (when used) and the portable compression give the same digests, on
  // every length from 0 to 300 bytes (every padding case) of a pseudo-random message and under a key.
  std::vector<std::uint8_t> message(300);
  std::uint32_t state = 12345;
  for (std::uint8_t& byte : message) {
    state = state * 1103515245u + 12345u;
    byte = static_cast<std::uint8_t>(state >> 16);
  }
  for (std::size_t size = 0; size <= message.size(); ++size) {
    const fair::Digest fast = fair::sha256(message.data(), size);
    const fair::Digest mac = fair::hmac_sha256(seed.data(), seed.size(), message.data(), size);
    const fair::PortableScope portable;
    CHECK(fast == fair::sha256(message.data(), size));
    CHECK(mac == fair::hmac_sha256(seed.data(), seed.size(), message.data(), size));
  }
  {
    const fair::PortableScope portable;
    std::uint8_t again[52];
    fair::deal(seed.data(), seed.size(), prefix, 0, pack, 52, again);
    CHECK(std::memcmp(out, again, 52) == 0);
  }
}

// The full-output writer: JSON string escapes as Python's json.dumps writes them (tests/test_round_output.py
// compares whole rounds with the Python writer), strength texts, and where a batch stops.
static void test_round_output() {
  const auto quoted = [](std::string_view text, bool ascii_only) {
    std::string out;
    append_json_string(text, ascii_only, &out);
    return out;
  };
  CHECK(quoted("a\"b\\\n\x01\x7f", false) == "\"a\\\"b\\\\\\n\\u0001\x7f\"");
  CHECK(quoted("\x7f", true) == "\"\\u007f\"");
  CHECK(quoted("Zo\xc3\xab", false) == "\"Zo\xc3\xab\"");
  CHECK(quoted("Zo\xc3\xab", true) == "\"Zo\\u00eb\"");
  CHECK(quoted("\xf0\x9f\x98\x80", true) == "\"\\ud83d\\ude00\"");
  CHECK(quoted("\xed\xa0\x80", false) == "\"\\ud800\"");  // a lone surrogate, escaped in both modes
  CHECK(quoted("\xed\xa0\x80", true) == "\"\\ud800\"");
  const auto text = [](Strength strength) {
    std::string out;
    append_strength_text(strength, &out);
    return out;
  };
  CHECK(text(eval({"Ts", "Th", "Qs"})) == "Pair of tens, queen kicker");
  CHECK(text(eval({"5s", "4s", "3d", "2h", "Ac"})) == "Straight, five high (wheel)");
  CHECK(text(eval({"As", "Ks", "Qs", "Js", "Ts"})) == "Royal flush");
  CHECK(text(eval({"9c", "7d", "4h"})) == "Nine high, seven-four");

  const RulesSpec spec;
  OutputRules rules;
  rules.spec = &spec;
  rules.rules_json = "\"pagat\"";
  rules.digest = "d";
  std::vector<std::uint8_t> cards = cards_of({"2c", "3c", "4c", "5d", "6d", "7d", "8d", "Td", "Js", "Qs", "Ks", "As", "9h",
                                              "2d", "3d", "4d", "5c", "6c", "7c", "8c", "Tc", "Jh", "Qh", "Kh", "Ah", "9s"});
  const std::vector<std::uint8_t> first = cards;
  cards.insert(cards.end(), first.begin(), first.end());
  cards[13 * 3] = cards[13 * 2];  // round 2: 2c held by both players
  const std::uint32_t rules_index[2] = {0, 0};
  std::uint8_t players[2] = {2, 2};
  const std::string names = "r1ABr2CD";
  const std::size_t offsets[7] = {0, 2, 3, 4, 6, 7, 8};
  RoundOutputBatch batch;
  batch.rounds = 2;
  batch.rules = &rules;
  batch.num_rules = 1;
  batch.rules_index = rules_index;
  batch.players = players;
  batch.cards = cards.data();
  batch.text = names;
  batch.offsets = offsets;
  RoundOutputFormat format;
  format.engine_version = "t";
  std::string out;
  RoundOutputStatus status = write_round_outputs(batch, 0, format, &out);
  CHECK(status.next == 1);
  CHECK(status.error.status == SettleStatus::kBadCards);
  CHECK(out.rfind("{\"id\":\"r1\",\"engine\":{\"name\":\"chinese-poker\",\"version\":\"t\"},\"rules\":\"pagat\","
                  "\"rules_digest\":\"d\",\"net\":[",
                  0) == 0);
  CHECK(out.find("\"name\":\"A\",\"index\":0,") != std::string::npos);
  CHECK(out.size() > 2 && out.compare(out.size() - 2, 2, "}\n") == 0);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  players[1] = 7;
  out.clear();
  status = write_round_outputs(batch, 1, format, &out);
  CHECK(status.next == 1 && status.error.status == SettleStatus::kBadPlayerCount && out.empty());

  // Every round that settles, the others skipped in their places, on one thread or several: the same bytes.
  players[1] = 2;
  const std::size_t many = 1500;
  std::vector<std::uint8_t> many_cards, many_players(many, 2);
  std::vector<std::uint32_t> many_rules(many, 0);
  std::string many_text;
  std::vector<std::size_t> many_offsets{0};
  for (std::size_t r = 0; r < many; ++r) {
    const std::uint8_t* from = cards.data() + 26 * (r % 7 == 3 ? 1 : 0);  // every seventh round: a card twice
    many_cards.insert(many_cards.end(), from, from + 26);
    for (const char* piece : {"7", "N", "E"}) {
      many_text += piece;
      many_offsets.push_back(many_text.size());
    }
  }
  const std::vector<std::uint8_t> integer_ids(many, 1);
  RoundOutputBatch each = batch;
  each.rounds = many;
  each.rules_index = many_rules.data();
  each.players = many_players.data();
  each.cards = many_cards.data();
  each.text = many_text;
  each.offsets = many_offsets.data();
  each.id_is_json = integer_ids.data();
  std::string one, two;
  std::vector<std::size_t> ends_one(many), ends_two(many);
  std::vector<std::uint8_t> settled_one(many), settled_two(many);
  write_each_round_output(each, format, Parallel{}, &one, ends_one.data(), settled_one.data());
  Parallel threads;
  threads.threads = 2;
  two = "prefix";
  write_each_round_output(each, format, threads, &two, ends_two.data(), settled_two.data());
  CHECK(two == "prefix" + one && ends_one == ends_two && settled_one == settled_two);
  CHECK(ends_one.back() == one.size());
  std::size_t settled = 0;
  for (std::size_t r = 0; r < many; ++r) {
    settled += settled_one[r];
    CHECK((settled_one[r] == 0) == (r % 7 == 3));
    if (r > 0 && settled_one[r] == 0) CHECK(ends_one[r] == ends_one[r - 1]);
  }
  CHECK(static_cast<std::size_t>(std::count(one.begin(), one.end(), '\n')) == settled);
  // The first round alone, as write_round_outputs writes it.
  std::string alone;
  RoundOutputBatch first_only = each;
  first_only.rounds = 1;
  CHECK(write_round_outputs(first_only, 0, format, &alone).next == 1);
  CHECK(one.compare(0, ends_one[0], alone) == 0);
}

int main() {
  test_cards();
  test_exhaustive_three();
  test_exhaustive_five(Wheel::Low);
  test_exhaustive_five(Wheel::Second);
  test_rules_examples();
  test_batch_errors();
  test_settle_examples();
  test_naturals();
  test_three_flushes_key_against_every_split();
  test_settle_batch_validation();
  test_arrange();
  test_checked_math();
  test_validate_rules();
  test_royalty_and_wheel();
  test_foul_reasons();
  test_stakes();
  test_caps();
#ifdef NDEBUG
  test_overflow_beyond_caps();
#endif
  test_settle_round_validation();
  test_settlement_knobs();
  test_held_naturals();
  test_real_table_naturals();
  test_build_expected_model();
  test_validate_model();
  test_arrange_hand();
  test_second_stage();
  test_bad_codes_everywhere();
  test_ofc_group();
  test_ofc_advise_pool();
  test_settle_batch_inputs_and_threads();
  test_evaluate_and_arrange_threads();
  test_presets_group();
  test_deck_group();
  test_jokers();
  test_pack_strengths();
  test_round_lines();
  test_scan_round_lines();
  test_round_output();
  test_fair();
  std::printf("%d passed, %d failed\n", g_checks - g_failures, g_failures);
  return g_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
