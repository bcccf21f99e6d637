// The core's own tests, runnable without Python (and under ASan/UBSan in CI).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/naturals.hpp"
#include "chinese_poker/settle.hpp"

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
    const int c = parse_card(t);
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
  CHECK(parse_card("As") == 51);
  CHECK(parse_card("2c") == 0);
  CHECK(parse_card("10h") == make_card(8, 2));
  CHECK(parse_card("td") == make_card(8, 1));
  CHECK(parse_card("K\xE2\x99\xA0") == make_card(11, 3));
  CHECK(parse_card("Ax") == -1);
  CHECK(parse_card("1s") == -1);
  CHECK(parse_card("") == -1);
  CHECK(format_card(51) == "As");
  CHECK(format_card(52) == "??");
  for (int c = 0; c < kDeckSize; ++c) CHECK(parse_card(format_card(c)) == c);
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
        const int c = parse_card(token);
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
  one_six.foul_as_scooped = true;
  r = settle_texts(e2, one_six);
  CHECK(r.net[0] == 6 && r.net[1] == -8 && r.net[2] == 3 && r.net[3] == -1);
  // RULES.md E4: doubled scoops and fouls with royalties, suit tie-break.
  RulesSpec e4;
  e4.scoop_multiplier = 2;
  e4.royalties_in_multiplier = true;
  e4.foul_as_scooped = true;
  e4.royalty[kMiddle][kFullHouse] = 2;
  e4.royalty[kBack][kFourOfAKind] = 8;
  e4.suit_tiebreak = true;
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

int main() {
  test_cards();
  test_exhaustive_three();
  test_exhaustive_five(Wheel::Low);
  test_exhaustive_five(Wheel::Second);
  test_rules_examples();
  test_batch_errors();
  test_settle_examples();
  test_naturals();
  test_settle_batch_validation();
  test_arrange();
  std::printf("%d passed, %d failed\n", g_checks - g_failures, g_failures);
  return g_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
