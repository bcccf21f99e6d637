// The full output of settled rounds, written as Python's json.dumps writes formats/round_settle.py's
// round_output (cpp/include/chinese_poker/round_output.hpp).
#include "chinese_poker/round_output.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/naturals.hpp"
#include "parallel.hpp"

namespace chinese_poker {

namespace {

constexpr const char* kHexDigits = "0123456789abcdef";

// The output as it is written: the caller reserves room for a whole round (`reserve`), then every write is
// a plain copy with no capacity check, and `finish` trims the string to what was written. Writes go through
// a pointer to the string's characters, refreshed when the string grows, and short texts (keys, card texts,
// rank words: nearly every write) are copied by a few fixed-size moves, where a call of memcpy would cost
// more than the copy.
class Buffer {
 public:
  explicit Buffer(std::string* out) : out_(out), data_(out->data()), size_(out->size()) {}
  void reserve(std::size_t room) {
    if (out_->size() - size_ >= room) return;
    const std::size_t doubled = 2 * out_->size();
    out_->resize(doubled > size_ + room ? doubled : size_ + room);
    data_ = out_->data();
  }
  void finish() { out_->resize(size_); }
  Buffer& put(char c) {
    data_[size_++] = c;
    return *this;
  }
  Buffer& put(std::string_view text) {
    char* at = data_ + size_;
    const char* from = text.data();
    const std::size_t n = text.size();
    // Two copies of a fixed size that overlap cover any length between that size and twice it, with no
    // byte read beyond the text: a few moves instead of a loop or a call.
    if (n >= 8 && n <= 16) {
      std::memcpy(at, from, 8);
      std::memcpy(at + n - 8, from + n - 8, 8);
    } else if (n >= 4 && n < 8) {
      std::memcpy(at, from, 4);
      std::memcpy(at + n - 4, from + n - 4, 4);
    } else if (n >= 2 && n < 4) {
      std::memcpy(at, from, 2);
      std::memcpy(at + n - 2, from + n - 2, 2);
    } else if (n == 1) {
      *at = *from;
    } else if (n > 16) {
      std::memcpy(at, from, n);
    }
    size_ += n;
    return *this;
  }
  template <std::size_t N>
  Buffer& put(const char (&text)[N]) {
    lit(text);
    return *this;
  }
  template <std::size_t N>
  void lit(const char (&text)[N]) {
    std::memcpy(data_ + size_, text, N - 1);
    size_ += N - 1;
  }
  void fill(std::size_t count, char c) {
    std::memset(data_ + size_, c, count);
    size_ += count;
  }
  char* at() { return data_ + size_; }
  void advance(std::size_t count) { size_ += count; }
  std::size_t size() const { return size_; }

 private:
  std::string* out_;
  char* data_;
  std::size_t size_;
};

void json_string(std::string_view text, bool ascii_only, Buffer* out);
void strength_text(Strength strength, Buffer* out);

void append_escape(unsigned code, Buffer* out) {
  char buf[6] = {'\\', 'u', kHexDigits[(code >> 12) & 15], kHexDigits[(code >> 8) & 15],
                 kHexDigits[(code >> 4) & 15], kHexDigits[code & 15]};
  out->put(std::string_view(buf, 6));
}

void append_int(std::int64_t value, Buffer* out) {
  char* begin = out->at();
  // Most amounts of an output are one digit (indices, royalties, row results): written directly.
  if (value >= 0 && value < 10) {
    *begin = static_cast<char>('0' + value);
    out->advance(1);
    return;
  }
  const auto done = std::to_chars(begin, begin + 24, value);
  out->advance(static_cast<std::size_t>(done.ptr - begin));
}

// The rank words of evaluation.py's descriptions, by rank value 2..14 (1: the low ace of a wheel, never
// named).
constexpr std::string_view kSingular[15] = {"", "ace", "deuce", "three", "four", "five", "six", "seven",
                                            "eight", "nine", "ten", "jack", "queen", "king", "ace"};
constexpr std::string_view kPlural[15] = {"", "aces", "deuces", "threes", "fours", "fives", "sixes", "sevens",
                                          "eights", "nines", "tens", "jacks", "queens", "kings", "aces"};
// HandCategory member names, lower case, by category.
constexpr std::string_view kCategoryNames[10] = {"high_card", "one_pair", "two_pair", "three_of_a_kind",
                                                 "straight", "flush", "full_house", "four_of_a_kind",
                                                 "straight_flush", "five_of_a_kind"};
constexpr std::string_view kDecidedBy[6] = {"natural", "surrender", "foul", "rows", "false_declaration",
                                            "not_played"};

// The text of every card code 0..53, format_card's (two characters each: rank and suit, or X1 and X2), made
// at compile time: a row's cards are written from it.
struct CardTexts {
  char text[kDeckSize + kMaxJokers][2];
  constexpr CardTexts() : text() {
    constexpr char kRanks[] = "23456789TJQKA";
    constexpr char kSuits[] = "cdhs";
    for (int code = 0; code < kDeckSize; ++code) {
      text[code][0] = kRanks[card_rank(code)];
      text[code][1] = kSuits[card_suit(code)];
    }
    for (int joker = 0; joker < kMaxJokers; ++joker) {
      text[kDeckSize + joker][0] = 'X';
      text[kDeckSize + joker][1] = static_cast<char>('1' + joker);
    }
  }
};
constexpr CardTexts kCardTexts;

std::string_view card_text(int code) { return {kCardTexts.text[static_cast<std::size_t>(code)], 2}; }

void append_ranks(const int* v, int count, Buffer* out) {
  for (int k = 0; k < count; ++k) {
    if (k > 0) out->put('-');
    out->put(kSingular[v[k]]);
  }
}

void append_kickers(const int* v, int count, Buffer* out) {
  if (count == 0) return;
  out->put(", ");
  append_ranks(v, count, out);
  out->put(count == 1 ? " kicker" : " kickers");
}

// A key as compact JSON writes it after another member, `,"name":`, made by joining literals; the Emitter
// writes it whole (without the comma for a first member), where its parts would be four writes.
#define CP_KEY(name) ",\"" name "\":"

// A JSON writer for one round: compact (separators "," and ":") or indented by 2 (", " and ": " as
// json.dumps with indent writes them: "," at line ends and ": " after keys), chosen at compile time so that
// the compact writer, the default output, tests nothing per member.
template <bool Indented>
class Emitter {
 public:
  Emitter(Buffer* out, int depth) : out_(out), depth_(depth) {}

  void open(char bracket) {
    out_->put(bracket);
    ++depth_;
    first_[depth_] = true;
  }
  void close(char bracket) {
    const bool empty = first_[depth_];
    --depth_;
    if (Indented && !empty) newline(depth_);
    out_->put(bracket);
  }
  // Before each item of a list or member of an object.
  void item() {
    if (!first_[depth_]) out_->put(',');
    first_[depth_] = false;
    if (Indented) newline(depth_);
  }
  // A member's key, given as CP_KEY("name") writes it.
  template <std::size_t N>
  void key(const char (&fused)[N]) {
    fused_key(std::string_view(fused, N - 1));
  }
  void fused_key(std::string_view fused) {
    if (Indented) {
      item();
      out_->put(fused.substr(1)).put(' ');
    } else {
      const std::size_t first = first_[depth_] ? 1 : 0;
      first_[depth_] = false;
      out_->put(std::string_view(fused.data() + first, fused.size() - first));
    }
  }
  // A key known only at run time (a joker's card text).
  void key(std::string_view name) {
    item();
    out_->put('"').put(name);
    out_->put(std::string_view(Indented ? "\": " : "\":", Indented ? 3 : 2));
  }
  void raw(std::string_view text) { out_->put(text); }
  void integer(std::int64_t value) { append_int(value, out_); }
  void boolean(bool value) {
    if (value) {
      out_->lit("true");
    } else {
      out_->lit("false");
    }
  }
  void null() { out_->lit("null"); }
  Buffer* out() { return out_; }

 private:
  void newline(int depth) {
    out_->put('\n');
    out_->fill(static_cast<std::size_t>(2 * depth), ' ');
  }
  Buffer* out_;
  int depth_;
  bool first_[12] = {};
};

template <bool Indented>
void int_list(Emitter<Indented>& e, const std::int64_t* values, int count) {
  e.open('[');
  for (int k = 0; k < count; ++k) {
    e.item();
    e.integer(values[k]);
  }
  e.close(']');
}

void cards_text(const std::uint8_t* codes, int count, Buffer* out) {
  out->put('"');
  for (int k = 0; k < count; ++k) {
    if (k > 0) out->put(' ');
    out->put(card_text(codes[k]));
  }
  out->put('"');
}

template <bool Indented>
void natural_value(Emitter<Indented>& e, const RulesSpec& rules, const PlayerFacts& facts) {
  if (facts.natural < 0) {
    e.null();
    return;
  }
  e.raw("\"");
  e.raw(natural_name(rules.natural_kind[static_cast<std::size_t>(facts.natural)]));
  e.raw("\"");
}

// The jokers of `facts` among `codes` as Python's PlayerResult.jokers_in writes them: "X1 as Qs, X2 as Kd".
void joker_suffix(const PlayerFacts& facts, const std::uint8_t* codes, int count, Buffer* out) {
  bool any = false;
  for (int k = 0; k < 2; ++k) {
    if (facts.joker_card[k] < 0) continue;
    const auto joker = static_cast<std::uint8_t>(kDeckSize + k);
    if (std::memchr(codes, joker, static_cast<std::size_t>(count)) == nullptr) continue;
    out->put(any ? ", " : " (");
    any = true;
    out->put(card_text(kDeckSize + k));
    out->put(" as ");
    out->put(card_text(facts.joker_card[k]));
  }
  if (any) out->put(')');
}

struct PlayerView {
  const std::uint8_t* cards;
  bool declared;
  bool surrendered;
  std::string_view name;
};

template <bool Indented>
void write_player(Emitter<Indented>& e, const OutputRules& rules, const RoundResult& result, int index,
                  const PlayerView& view, bool ascii_only) {
  const PlayerFacts& facts = result.facts[index];
  e.item();
  e.open('{');
  e.key(CP_KEY("name"));
  json_string(view.name, ascii_only, e.out());
  e.key(CP_KEY("index"));
  e.integer(index);
  e.key(CP_KEY("net"));
  e.integer(result.net[index]);
  e.key(CP_KEY("foul"));
  e.boolean(facts.foul);
  e.key(CP_KEY("natural"));
  natural_value(e, *rules.spec, facts);
  e.key(CP_KEY("surrendered"));
  e.boolean(view.surrendered);
  e.key(CP_KEY("home_run"));
  e.boolean(result.home_run[index]);
  if (rules.fantasyland_cards) {
    e.key(CP_KEY("fantasyland_cards"));
    e.integer(facts.fantasyland_cards);
  }
  if (rules.ace_units) {
    e.key(CP_KEY("ace_units"));
    e.integer(facts.ace_units);
  }
  if (rules.jokers) {
    e.key(CP_KEY("jokers"));
    e.open('{');
    for (int k = 0; k < 2; ++k) {
      if (facts.joker_card[k] < 0) continue;
      e.key(card_text(kDeckSize + k));
      e.raw("\"");
      e.raw(card_text(facts.joker_card[k]));
      e.raw("\"");
    }
    e.close('}');
  }
  if (view.declared) {
    e.key(CP_KEY("declared"));
    cards_text(view.cards, 13, e.out());
    e.key(CP_KEY("rows"));
    e.null();
    e.close('}');
    return;
  }
  e.key(CP_KEY("rows"));
  e.open('{');
  if (facts.has_setting) {
    static constexpr std::string_view kRowKeys[3] = {CP_KEY("front"), CP_KEY("middle"), CP_KEY("back")};
    static constexpr int kRowStart[3] = {0, 3, 8};
    static constexpr int kRowSize[3] = {3, 5, 5};
    for (int row = 0; row < 3; ++row) {
      const std::uint8_t* codes = view.cards + kRowStart[row];
      const Strength strength = facts.strength[row];
      e.fused_key(kRowKeys[row]);
      e.open('{');
      e.key(CP_KEY("cards"));
      cards_text(codes, kRowSize[row], e.out());
      e.key(CP_KEY("strength"));
      e.integer(static_cast<std::int64_t>(strength));
      e.key(CP_KEY("category"));
      e.raw("\"");
      e.raw(kCategoryNames[(strength >> 20) % 10]);
      e.raw("\"");
      e.key(CP_KEY("text"));
      e.raw("\"");
      strength_text(strength, e.out());
      if (rules.jokers) joker_suffix(facts, codes, kRowSize[row], e.out());
      e.raw("\"");
      e.key(CP_KEY("royalty"));
      e.integer(facts.royalty[row]);
      e.close('}');
    }
  }
  e.close('}');
  e.close('}');
}

template <bool Indented>
void write_pair(Emitter<Indented>& e, const OutputRules& rules, const RoundResult& result, const PairResult& pair,
                const bool* surrendered, bool extended) {
  const PlayerFacts& first = result.facts[pair.i];
  const PlayerFacts& second = result.facts[pair.j];
  e.item();
  e.open('{');
  e.key(CP_KEY("i"));
  e.integer(pair.i);
  e.key(CP_KEY("j"));
  e.integer(pair.j);
  e.key(CP_KEY("decided_by"));
  e.raw("\"");
  e.raw(kDecidedBy[static_cast<int>(pair.decided_by) % 6]);
  e.raw("\"");
  e.key(CP_KEY("rows"));
  if (pair.rows_known) {
    const std::int64_t rows[3] = {pair.rows[0], pair.rows[1], pair.rows[2]};
    int_list(e, rows, 3);
  } else {
    e.null();
  }
  e.key(CP_KEY("foul"));
  e.open('[');
  e.item();
  e.boolean(first.foul);
  e.item();
  e.boolean(second.foul);
  e.close(']');
  e.key(CP_KEY("natural"));
  e.open('[');
  e.item();
  natural_value(e, *rules.spec, first);
  e.item();
  natural_value(e, *rules.spec, second);
  e.close(']');
  e.key(CP_KEY("royalties"));
  e.open('[');
  e.item();
  int_list(e, first.royalty, 3);
  e.item();
  int_list(e, second.royalty, 3);
  e.close(']');
  e.key(CP_KEY("surrendered"));
  e.open('[');
  e.item();
  e.boolean(surrendered[pair.i]);
  e.item();
  e.boolean(surrendered[pair.j]);
  e.close(']');
  const struct {
    std::string_view key;
    std::int64_t value;
  } amounts[] = {
      {CP_KEY("natural_units"), pair.natural_units},         {CP_KEY("surrender_units"), pair.surrender_units},
      {CP_KEY("row_units"), pair.row_units},                 {CP_KEY("royalty_units"), pair.royalty_units},
      {CP_KEY("overall_units"), pair.overall_units},         {CP_KEY("scoop"), pair.scoop},
      {CP_KEY("scoop_bonus_units"), pair.scoop_bonus_units}, {CP_KEY("multiplier"), pair.multiplier},
      {CP_KEY("subtotal"), pair.subtotal},                   {CP_KEY("stake"), pair.stake},
      {CP_KEY("home_run"), pair.home_run},                   {CP_KEY("units"), pair.units},
  };
  for (const auto& amount : amounts) {
    e.fused_key(amount.key);
    e.integer(amount.value);
  }
  if (extended) {
    e.key(CP_KEY("false_declaration_units"));
    e.integer(pair.false_declaration_units);
    e.key(CP_KEY("ace_units"));
    e.integer(pair.ace_units);
    e.key(CP_KEY("capped"));
    e.boolean(pair.capped);
    e.key(CP_KEY("home_run_bonus_units"));
    e.integer(pair.home_run_bonus_units);
    e.key(CP_KEY("home_run_capped"));
    e.boolean(pair.home_run_capped);
    e.key(CP_KEY("horse"));
    e.integer(pair.horse);
    e.key(CP_KEY("bet"));
    e.integer(pair.bet);
  }
  e.close('}');
}


void json_string(std::string_view text, bool ascii_only, Buffer* out) {
  out->put('"');
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  // Nearly every text (ids, names, the version, the digest) is printable ASCII with no quote or backslash:
  // its longest such prefix is copied at once, and the rest goes character by character.
  std::size_t k = 0;
  while (k < n && s[k] >= 0x20 && s[k] < 0x7f && s[k] != '"' && s[k] != '\\') ++k;
  out->put(text.substr(0, k));
  while (k < n) {
    const unsigned char c = s[k];
    if (c < 0x80) {
      switch (c) {
        case '"': out->put("\\\""); break;
        case '\\': out->put("\\\\"); break;
        case '\n': out->put("\\n"); break;
        case '\r': out->put("\\r"); break;
        case '\t': out->put("\\t"); break;
        case '\b': out->put("\\b"); break;
        case '\f': out->put("\\f"); break;
        default:
          if (c < 0x20 || (ascii_only && c == 0x7f)) {
            append_escape(c, out);
          } else {
            out->put(static_cast<char>(c));
          }
      }
      ++k;
      continue;
    }
    // A multi-byte sequence (valid by the caller's encoding): its length and code point.
    std::size_t length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    if (k + length > n) length = n - k;
    unsigned code = c & (length == 4 ? 0x07u : length == 3 ? 0x0fu : 0x1fu);
    for (std::size_t m = 1; m < length; ++m) code = (code << 6) | (s[k + m] & 0x3fu);
    const bool surrogate = code >= 0xd800 && code <= 0xdfff;
    if (surrogate) {
      append_escape(code, out);  // no encoding writes a lone surrogate: its escape, as safe_text gives
    } else if (!ascii_only) {
      out->put(text.substr(k, length));
    } else if (code >= 0x10000) {
      const unsigned v = code - 0x10000;
      append_escape(0xd800 | (v >> 10), out);
      append_escape(0xdc00 | (v & 0x3ff), out);
    } else {
      append_escape(code, out);
    }
    k += length;
  }
  out->put('"');
}

void strength_text(Strength strength, Buffer* out) {
  const unsigned cat = strength >> 20;
  int v[5];
  int count = 0;
  for (int shift = 16; shift >= 0; shift -= 4) v[count++] = static_cast<int>((strength >> shift) & 15u);
  while (count > 0 && v[count - 1] == 0) --count;
  const bool wheel = count == 5 && ((v[0] == 5 && v[1] == 4 && v[2] == 3 && v[3] == 2 && v[4] == 1) ||
                                    (v[0] == 14 && v[1] == 5 && v[2] == 4 && v[3] == 3 && v[4] == 2));
  switch (cat) {
    case 4:
    case 8: {
      const std::string_view name = cat == 4 ? "Straight" : "Straight flush";
      if (wheel) {
        out->put(name).put(", five high (wheel)");
      } else if (cat == 8 && v[0] == 14) {
        out->put("Royal flush");
      } else {
        out->put(name).put(", ").put(kSingular[v[0]]).put(" high");
      }
      return;
    }
    case 9: out->put("Five of a kind, ").put(kPlural[v[0]]); return;
    case 7:
      out->put("Four of a kind, ").put(kPlural[v[0]]);
      append_kickers(v + 1, count - 1, out);
      return;
    case 6: out->put("Full house, ").put(kPlural[v[0]]).put(" over ").put(kPlural[v[1]]); return;
    case 5:
      out->put("Flush, ");
      append_ranks(v, count, out);
      return;
    case 3:
      out->put("Three of a kind, ").put(kPlural[v[0]]);
      append_kickers(v + 1, count - 1, out);
      return;
    case 2:
      out->put("Two pair, ").put(kPlural[v[0]]).put(" and ").put(kPlural[v[1]]);
      append_kickers(v + 2, count - 2, out);
      return;
    case 1:
      out->put("Pair of ").put(kPlural[v[0]]);
      append_kickers(v + 1, count - 1, out);
      return;
    default: {
      const std::string_view word = kSingular[count > 0 ? v[0] : 0];
      if (!word.empty()) {
        out->put(static_cast<char>(word[0] - 'a' + 'A'));
        out->put(word.substr(1));
      }
      out->put(" high");
      if (count > 1) {
        out->put(", ");
        append_ranks(v + 1, count - 1, out);
      }
    }
  }
}

// Room enough for one round's output, but for its texts: 6 players and 15 pairs, indented, take about 35 KB.
constexpr std::size_t kRoundRoom = 64 * 1024;

// Where a round's entries begin in the batch's per-player, text, stakes and bets columns.
struct ColumnCursor {
  std::size_t seat = 0, text = 0, stakes = 0, bets = 0;

  // Past round `r`, whether it settled or not: its entries are in the columns either way.
  void pass(const RoundOutputBatch& batch, std::size_t r) {
    const std::size_t p = batch.players[r];
    seat += p;
    text += p + 1;
    if (batch.has_stakes != nullptr && batch.has_stakes[r] != 0) stakes += p * p;
    if (batch.has_bets != nullptr && batch.has_bets[r] != 0) bets += p;
  }
};

// What write_body reads of a settled round.
struct SettledRound {
  const RoundOutputBatch& batch;
  std::size_t r;
  const ColumnCursor& at;
  const RoundOutputFormat& format;
  const OutputRules& rules;
  const RoundResult& result;
  const PlayerInput* inputs;
  const bool* surrendered;
};

// The output of a settled round (the caller reserves its room), compact or indented.
template <bool Indented>
void write_body(const SettledRound& round, Buffer* out) {
  const RoundOutputBatch& batch = round.batch;
  const std::size_t r = round.r;
  const RoundOutputFormat& format = round.format;
  const OutputRules& rules = round.rules;
  const RoundResult& result = round.result;
  const PlayerInput* inputs = round.inputs;
  const bool* surrendered = round.surrendered;
  const int p = batch.players[r];
  const std::size_t players = static_cast<std::size_t>(p);
  const bool with_bets = batch.has_bets != nullptr && batch.has_bets[r] != 0;
  const std::size_t* offsets = batch.offsets + round.at.text;
  auto text_of = [&](std::size_t k) { return batch.text.substr(offsets[k], offsets[k + 1] - offsets[k]); };
  Emitter<Indented> e(out, Indented ? 1 : 0);
  e.open('{');
  e.key(CP_KEY("id"));
  if (batch.id_is_json != nullptr && batch.id_is_json[r] != 0) {
    e.raw(text_of(0));
  } else {
    json_string(text_of(0), format.ascii_only, out);
  }
  e.key(CP_KEY("engine"));
  e.open('{');
  e.key(CP_KEY("name"));
  e.raw("\"chinese-poker\"");
  e.key(CP_KEY("version"));
  json_string(format.engine_version, format.ascii_only, out);
  e.close('}');
  e.key(CP_KEY("rules"));
  e.raw(rules.rules_json);
  e.key(CP_KEY("rules_digest"));
  json_string(rules.digest, format.ascii_only, out);
  e.key(CP_KEY("net"));
  int_list(e, result.net, p);
  e.key(CP_KEY("players"));
  e.open('[');
  for (int k = 0; k < p; ++k) {
    const PlayerView view{inputs[k].cards, inputs[k].declared, surrendered[k], text_of(static_cast<std::size_t>(k) + 1)};
    write_player(e, rules, result, k, view, format.ascii_only);
  }
  e.close(']');
  const bool banker_round = result.banker >= 0;
  e.key(CP_KEY("pairs"));
  e.open('[');
  for (int q = 0; q < result.num_pairs; ++q) {
    write_pair(e, rules, result, result.pairs[q], surrendered, rules.extended || banker_round);
  }
  e.close(']');
  if (banker_round) {
    e.key(CP_KEY("banker"));
    e.integer(result.banker);
    e.key(CP_KEY("bets"));
    e.open('[');
    for (std::size_t k = 0; k < players; ++k) {
      e.item();
      e.integer(with_bets ? batch.bets[round.at.bets + k] : 1);
    }
    e.close(']');
  }
  e.close('}');
}

// Settles round `r`, whose entries begin at `at`, and writes its output; when it does not settle, its
// error (with `round` set to r) and nothing written.
SettleError write_round(const RoundOutputBatch& batch, std::size_t r, const ColumnCursor& at,
                        const RoundOutputFormat& format, Buffer* out) {
  const int p = batch.players[r];
  const std::uint32_t rules_at = batch.rules_index[r];
  if (p < kMinPlayers || p > kMaxPlayers || rules_at >= batch.num_rules) {
    SettleError error;
    error.status = SettleStatus::kBadPlayerCount;
    error.round = static_cast<std::int64_t>(r);
    return error;
  }
  const OutputRules& rules = batch.rules[rules_at];
  const std::size_t players = static_cast<std::size_t>(p);
  PlayerInput inputs[kMaxPlayers];
  bool surrendered[kMaxPlayers];
  for (int k = 0; k < p; ++k) {
    const std::size_t seat = at.seat + static_cast<std::size_t>(k);
    inputs[k].cards = batch.cards + 13 * seat;
    inputs[k].declared = batch.declared != nullptr && batch.declared[seat] != 0;
    inputs[k].surrendered = surrendered[k] = batch.surrendered != nullptr && batch.surrendered[seat] != 0;
    inputs[k].fantasyland = batch.fantasyland != nullptr && batch.fantasyland[seat] != 0;
  }
  RoundOptions options;
  const bool with_bets = batch.has_bets != nullptr && batch.has_bets[r] != 0;
  if (batch.has_stakes != nullptr && batch.has_stakes[r] != 0) options.stakes = batch.stakes + at.stakes;
  if (batch.banker != nullptr) {
    // Out of range stays out of range (settle_round names it) without narrowing.
    const std::int64_t seat_of_banker = batch.banker[r];
    options.banker = seat_of_banker < 0 ? -1 : static_cast<int>(seat_of_banker > kMaxPlayers ? kMaxPlayers : seat_of_banker);
  }
  if (with_bets) options.bets = batch.bets + at.bets;
  RoundResult result;
  SettleError error = settle_round(inputs, p, *rules.spec, options, &result);
  if (error) {
    error.round = static_cast<std::int64_t>(r);
    return error;
  }
  const std::size_t* offsets = batch.offsets + at.text;
  // Every text at most 6 bytes a byte once escaped.
  out->reserve(kRoundRoom + 6 * (offsets[players + 1] - offsets[0] + format.engine_version.size()) +
               rules.rules_json.size() + 6 * rules.digest.size());
  const SettledRound round{batch, r, at, format, rules, result, inputs, surrendered};
  if (format.indented) {
    out->put(",\n  ");
    write_body<true>(round, out);
  } else {
    write_body<false>(round, out);
    out->put('\n');
  }
  return SettleError{};
}

// Writes rounds [begin, end) of `batch` whose entries begin at `at`, each that settles; ends[r] is where
// round r's output ends in `*out` (where the one before it ended, for a round that did not settle), and
// settled[r] whether it did.
void write_each(const RoundOutputBatch& batch, std::size_t begin, std::size_t end, ColumnCursor at,
                const RoundOutputFormat& format, std::string* out, std::size_t* ends, std::uint8_t* settled) {
  Buffer buffer(out);
  for (std::size_t r = begin; r < end; ++r) {
    settled[r] = write_round(batch, r, at, format, &buffer) ? 0 : 1;
    ends[r] = buffer.size();
    at.pass(batch, r);
  }
  buffer.finish();
}

}  // namespace

RoundOutputStatus write_round_outputs(const RoundOutputBatch& batch, std::size_t start,
                                      const RoundOutputFormat& format, std::string* out) {
  ColumnCursor at;
  for (std::size_t r = 0; r < start && r < batch.rounds; ++r) at.pass(batch, r);
  Buffer buffer(out);
  RoundOutputStatus status;
  for (std::size_t r = start; r < batch.rounds; ++r) {
    const SettleError error = write_round(batch, r, at, format, &buffer);
    if (error) {
      status.next = r;
      status.error = error;
      buffer.finish();
      return status;
    }
    at.pass(batch, r);
  }
  buffer.finish();
  status.next = batch.rounds;
  return status;
}

void write_each_round_output(const RoundOutputBatch& batch, const RoundOutputFormat& format,
                             const Parallel& parallel, std::string* out, std::size_t* ends, std::uint8_t* settled) {
  const std::size_t first = out->size();
  // Rounds a unit of work: each unit writes into a string of its own, joined in order afterwards, so the
  // bytes are those of one thread. One thread writes straight into `out`.
  constexpr std::size_t kUnit = 512;
  const std::size_t units = (batch.rounds + kUnit - 1) / kUnit;
  if (detail::threads_for(batch.rounds, kUnit, parallel.threads) <= 1) {
    write_each(batch, 0, batch.rounds, ColumnCursor{}, format, out, ends, settled);
    for (std::size_t r = 0; r < batch.rounds; ++r) ends[r] -= first;
    return;
  }
  std::vector<ColumnCursor> starts(units);
  ColumnCursor at;
  for (std::size_t r = 0; r < batch.rounds; ++r) {
    if (r % kUnit == 0) starts[r / kUnit] = at;
    at.pass(batch, r);
  }
  std::vector<std::string> parts(units);
  Parallel units_of(parallel);
  units_of.chunk = kUnit;
  (void)detail::for_each_chunk<detail::NoError>(batch.rounds, units_of, kUnit,
                                        [&](std::size_t begin, std::size_t end, std::size_t*) noexcept {
                                          write_each(batch, begin, end, starts[begin / kUnit], format,
                                                     &parts[begin / kUnit], ends, settled);
                                          return detail::NoError{};
                                        });
  std::size_t size = first;
  for (const std::string& part : parts) size += part.size();
  out->reserve(size);
  for (std::size_t unit = 0; unit < units; ++unit) {
    const std::size_t offset = out->size() - first;
    const std::size_t end = std::min(batch.rounds, (unit + 1) * kUnit);
    for (std::size_t r = unit * kUnit; r < end; ++r) ends[r] += offset;
    out->append(parts[unit]);
  }
}

void append_strength_text(Strength strength, std::string* out) {
  Buffer buffer(out);
  buffer.reserve(128);
  strength_text(strength, &buffer);
  buffer.finish();
}

void append_json_string(std::string_view text, bool ascii_only, std::string* out) {
  Buffer buffer(out);
  buffer.reserve(6 * text.size() + 2);
  json_string(text, ascii_only, &buffer);
  buffer.finish();
}

}  // namespace chinese_poker
