#include "chinese_poker/round_lines.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "chinese_poker/card_text.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/settle.hpp"
#include "json_scan.hpp"

namespace chinese_poker {

namespace {

constexpr int kCardsPerHand = 13;
constexpr int kRowSize[3] = {3, 5, 5};
constexpr int kRowStart[3] = {0, 3, 8};

using Line = json::Scanner;

// The common card text, two letters a card ("Ks Kh Kd", "ks,kh,kd") between ASCII separators (space,
// ',' or ';'), read through a table: exactly `n` cards into `out`, true; false when the text is anything
// else, which parse_card_text then reads (it reads this form to the same codes, and every other form).
bool plain_card_text(std::string_view text, std::size_t n, std::uint8_t* out) noexcept {
  std::size_t count = 0;
  std::size_t k = 0;
  while (k < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[k]);
    if (c == ' ' || c == ',' || c == ';') {
      ++k;
      continue;
    }
    if (k + 1 >= text.size() || count == n) return false;
    const int rank = kCardLetters.rank[c];
    const int suit = kCardLetters.suit[static_cast<unsigned char>(text[k + 1])];
    if (rank < 0 || suit < 0) return false;
    // A card must end its chunk here, or the general parser reads the chunk (e.g. "AsKd").
    if (k + 2 < text.size()) {
      const char next = text[k + 2];
      if (next != ' ' && next != ',' && next != ';') return false;
    }
    out[count++] = static_cast<std::uint8_t>(make_card(rank, suit));
    k += 2;
  }
  return count == n;
}

// A row string spelled as score and vectors write it, "As Kd 7c": `n` cards of two letters each, one space
// between them, then the closing quote. Read in place, in one pass (no scan of the string first); false,
// with nothing consumed, for any other spelling, which read_row reads the general way. The scanner is at
// the opening quote. The letters are ASCII and none is a quote, a backslash or a control character, so
// such a string is valid JSON and holds no escape.
bool spaced_card_row(Line& line, std::size_t n, std::uint8_t* out) noexcept {
  const std::string_view text = line.text();
  const std::size_t at = line.pos() + 1;
  if (line.end() < at || line.end() - at < 3 * n) return false;  // 2n letters, n - 1 spaces and the quote
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t c = at + 3 * k;
    const int rank = kCardLetters.rank[static_cast<unsigned char>(text[c])];
    const int suit = kCardLetters.suit[static_cast<unsigned char>(text[c + 1])];
    if (rank < 0 || suit < 0 || text[c + 2] != (k + 1 == n ? '"' : ' ')) return false;
    out[k] = static_cast<std::uint8_t>(make_card(rank, suit));
  }
  line.skip_to(at + 3 * n);
  return true;
}

// The joker symbol U+1F0CF in UTF-8: which joker it stands for depends on the whole hand (the first one the
// hand does not write out), so a row holding it is left to the general reader.
constexpr std::string_view kJokerSymbol = "\xF0\x9F\x83\x8F";

// One row's cards into `out` (exactly `size` codes): a card text string, or a list of card strings and
// codes. `pack`: the jokers X1 and X2 (codes 52 and 53) are read too, for the core to check against the
// rules' pack; else only codes 0..51.
bool read_row(Line& line, int size, std::uint8_t* out, bool pack = false) {
  const auto n = static_cast<std::size_t>(size);
  const unsigned end = pack ? unsigned{kDeckSize + kMaxJokers} : unsigned{kDeckSize};
  if (line.peek('"')) {
    if (spaced_card_row(line, n, out)) return true;
    json::StringSpan span;
    if (!line.string(&span) || span.escaped) return false;
    const std::string_view text = line.slice(span.begin, span.length);
    if (plain_card_text(text, n, out)) return true;
    if (text.find(kJokerSymbol) != std::string_view::npos) return false;
    std::size_t count = 0;
    const CardTextIssue issue = parse_card_text(text, out, n, &count);
    if (!issue.ok || count != n) return false;
    for (std::size_t k = 0; k < n; ++k) {
      if (out[k] >= end) return false;
    }
    return true;
  }
  if (!line.take('[')) return false;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && !line.take(',')) return false;
    int card = -1;
    if (line.next() == '"') {
      json::StringSpan span;
      if (!line.string(&span) || span.escaped) return false;
      const std::string_view token = line.slice(span.begin, span.length);
      if (token.find(kJokerSymbol) != std::string_view::npos) return false;
      card = parse_card_token(token);
    } else if (!line.small_code(end, &card)) {
      return false;
    }
    if (card < 0 || card >= static_cast<int>(end)) return false;
    out[k] = static_cast<std::uint8_t>(card);
  }
  return line.take(']');
}

// A name that the general reader accepts as given: not only spaces (printable ASCII is all the reader
// takes, and of it only the space is white space).
bool usable_name(std::string_view name) noexcept { return name.find_first_not_of(' ') != std::string_view::npos; }

// The name a player goes by: its own, else P1, P2, ... by seat.
bool same_name(std::string_view a, int seat_a, std::string_view b, int seat_b) noexcept {
  char default_a[2] = {'P', static_cast<char>('1' + seat_a)};
  char default_b[2] = {'P', static_cast<char>('1' + seat_b)};
  const std::string_view x = a.data() != nullptr ? a : std::string_view(default_a, 2);
  const std::string_view y = b.data() != nullptr ? b : std::string_view(default_b, 2);
  return x == y;
}

// One player object: its 13 cards into `cards`, its name (or an empty view with no data) into `name`.
bool read_player(Line& line, std::uint8_t* cards, std::string_view* name) {
  if (!line.take('{')) return false;
  unsigned seen = 0;  // bit 0..2: front, middle, back; bit 3: name
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      int row = -1;
      if (key == "front") row = 0;
      else if (key == "middle") row = 1;
      else if (key == "back") row = 2;
      if (row >= 0) {
        if ((seen >> row & 1u) != 0) return false;
        seen |= 1u << row;
        if (!read_row(line, kRowSize[row], cards + kRowStart[row])) return false;
      } else if (key == "name") {
        if ((seen & 8u) != 0) return false;
        seen |= 8u;
        json::StringSpan span;
        if (!line.string(&span) || !span.plain) return false;
        *name = line.slice(span.begin, span.length);
        if (!usable_name(*name)) return false;
      } else {
        return false;
      }
    } while (line.take(','));
  }
  return line.take('}') && (seen & 7u) == 7u;
}

// The players of one round into `cards` (room for max_players x 13) and their count into `*players`.
bool read_players(Line& line, int max_players, std::uint8_t* cards, int* players) {
  if (!line.take('[')) return false;
  std::string_view names[kMaxPlayers] = {};
  int count = 0;
  if (!line.peek(']')) {
    do {
      if (count >= max_players) return false;
      if (!read_player(line, cards + count * kCardsPerHand, &names[count])) return false;
      ++count;
    } while (line.take(','));
  }
  if (!line.take(']') || count < kMinPlayers) return false;
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (same_name(names[a], a, names[b], b)) return false;
    }
  }
  // No card twice in the round (within a hand or across hands): one pack of 52.
  std::uint64_t held = 0;
  for (int k = 0; k < count * kCardsPerHand; ++k) {
    const std::uint64_t bit = std::uint64_t{1} << cards[k];
    if ((held & bit) != 0) return false;
    held |= bit;
  }
  *players = count;
  return true;
}

// One round object, the whole line.
bool read_round(Line& line, int max_players, std::uint8_t* cards, int* players, RoundLineId* id) {
  if (!line.take('{')) return false;
  bool has_id = false, has_players = false;
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      if (key == "id") {
        if (has_id) return false;
        has_id = true;
        if (line.peek('"')) {
          id->kind = RoundIdKind::kString;
          json::StringSpan span;
          if (!line.string(&span) || !span.plain) return false;
          id->begin = span.begin;
          id->length = span.length;
        } else {
          id->kind = RoundIdKind::kInteger;
          if (!line.int64(&id->value)) return false;
        }
      } else if (key == "players") {
        if (has_players) return false;
        has_players = true;
        if (!read_players(line, max_players, cards, players)) return false;
      } else {
        return false;
      }
    } while (line.take(','));
  }
  if (!line.take('}') || !has_players) return false;
  line.skip_space();
  return line.at_end();
}

// Blank as the general reader judges a line: only ASCII white space (bytes.strip()).
bool blank(std::string_view text, std::size_t begin, std::size_t end) noexcept {
  for (std::size_t k = begin; k < end; ++k) {
    const char c = text[k];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  }
  return true;
}

std::size_t line_end(std::string_view text, std::size_t begin) noexcept {
  const std::size_t nl = text.find('\n', begin);
  return nl == std::string_view::npos ? text.size() : nl;
}

// Room for one value written by std::to_chars: int64's 19 digits and a sign.
constexpr std::size_t kIntChars = 20;

char* write_int(char* at, char* end, std::int64_t value) noexcept {
  const std::to_chars_result result = std::to_chars(at, end, value);
  return result.ptr;  // the room is reserved by the caller, so this never fails
}

}  // namespace

bool read_round_lines(std::string_view text, std::size_t max_rounds, int max_players, RoundLines* out) {
  if (max_players > kMaxPlayers) max_players = kMaxPlayers;
  if (max_players < kMinPlayers || max_rounds == 0) return false;
  std::size_t start = 0;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) start = 3;
  // Room for every round at once: at most one per line, and at most max_rounds.
  std::size_t lines = 1;
  for (std::size_t k = text.find('\n', start); k != std::string_view::npos; k = text.find('\n', k + 1)) ++lines;
  const std::size_t room = lines < max_rounds ? lines : max_rounds;
  constexpr std::size_t kRoundBytes = std::size_t{kMaxPlayers} * kCardsPerHand;
  if (room > std::numeric_limits<std::size_t>::max() / kRoundBytes) return false;
  out->cards.assign(room * kRoundBytes, 0);
  out->ids.assign(room, RoundLineId{});
  out->rounds = 0;
  out->players = 0;
  out->more = false;
  std::uint8_t* cards = out->cards.data();
  for (std::size_t begin = start; begin <= text.size();) {
    const std::size_t end = line_end(text, begin);
    if (!blank(text, begin, end)) {
      if (out->rounds == max_rounds) {
        out->more = true;
        break;
      }
      const std::size_t index = out->rounds;
      Line line(text, begin, end);
      RoundLineId* id = &out->ids[index];
      int players = 0;
      // Each round is read at its own stride once the count is known; until then (the first round) the
      // stride is the largest, which is where round 0 starts either way.
      const std::size_t stride = out->players != 0 ? static_cast<std::size_t>(out->players) * kCardsPerHand : 0;
      std::uint8_t* round_cards = cards + index * stride;
      if (!read_round(line, max_players, round_cards, &players, id)) return false;
      if (out->players == 0) out->players = players;
      if (players != out->players) return false;
      if (id->kind == RoundIdKind::kPosition) id->value = static_cast<std::int64_t>(index + 1);
      out->rounds = index + 1;
    }
    begin = end + 1;
  }
  if (out->rounds == 0) return false;
  out->cards.resize(out->rounds * static_cast<std::size_t>(out->players) * kCardsPerHand);
  out->ids.resize(out->rounds);
  return true;
}

void write_net_lines(std::string_view text, const RoundLines& lines, const std::int64_t* net, std::string* out) {
  const auto players = static_cast<std::size_t>(lines.players);
  // The most one line can take, so that the buffer is sized once: {"id": ID ,"net":[ N,N,... ]}\n
  constexpr std::string_view kHead = "{\"id\":", kMiddle = ",\"net\":[", kTail = "]}\n";
  std::size_t room = 0;
  for (std::size_t r = 0; r < lines.rounds; ++r) {
    const RoundLineId& id = lines.ids[r];
    room += kHead.size() + (id.kind == RoundIdKind::kString ? id.length + 2 : kIntChars) + kMiddle.size() +
            players * (kIntChars + 1) + kTail.size();
  }
  const std::size_t first = out->size();
  out->resize(first + room);
  char* at = &(*out)[first];
  char* const end = at + room;
  for (std::size_t r = 0; r < lines.rounds; ++r) {
    const RoundLineId& id = lines.ids[r];
    std::memcpy(at, kHead.data(), kHead.size());
    at += kHead.size();
    if (id.kind == RoundIdKind::kString) {
      *at++ = '"';
      std::memcpy(at, text.data() + id.begin, id.length);
      at += id.length;
      *at++ = '"';
    } else {
      at = write_int(at, end, id.value);
    }
    std::memcpy(at, kMiddle.data(), kMiddle.size());
    at += kMiddle.size();
    for (std::size_t p = 0; p < players; ++p) {
      if (p > 0) *at++ = ',';
      at = write_int(at, end, net[r * players + p]);
    }
    std::memcpy(at, kTail.data(), kTail.size());
    at += kTail.size();
  }
  out->resize(static_cast<std::size_t>(at - out->data()));
}

bool settle_net_lines(std::string_view text, const RulesSpec& rules, std::size_t max_rounds, int max_players,
                      const Parallel& parallel, std::string* out, bool* more) {
  if (rules.extra_suits != 0 || rules.jokers != 0) return false;
  RoundLines lines;
  if (!read_round_lines(text, max_rounds, max_players, &lines)) return false;
  std::vector<std::int64_t> net(lines.rounds * static_cast<std::size_t>(lines.players));
  BatchOutputs outputs;
  outputs.net = net.data();
  const SettleError error = settle_batch(lines.cards.data(), lines.rounds, lines.players, rules, BatchInputs{},
                                         outputs, parallel);
  if (error) return false;
  write_net_lines(text, lines, net.data(), out);
  *more = lines.more;
  return true;
}

}  // namespace chinese_poker

// ----- Every round the format allows ------------------------------------------------------------------

namespace chinese_poker {

namespace {

// What one line's reading gathers before it is kept in the scan.
struct Reading {
  ScannedRound* round;
  std::uint8_t* cards;       // room for kMaxPlayers x 13
  std::int64_t stakes[kMaxPlayers * kMaxPlayers];
  std::int64_t bets[kMaxPlayers];
  std::size_t stake_rows = 0, stake_columns = 0, bet_count = 0;
  bool has_stakes = false, has_bets = false;
  bool banker_by_name = false;
  std::string_view banker_name;
  std::string banker_value;  // a banker's name given with escapes, its value
  std::size_t rules_begin = 0, rules_length = 0;
  bool has_rules = false;
  std::string* strings = nullptr;  // RoundScan::strings
  bool ascii_output = false;
};

// A string token that is not plain: its value appended to *strings (begin and length there); false when
// it holds a lone surrogate, or (ascii) a byte beyond ASCII.
bool decode_into(std::string_view raw, bool ascii, std::string* strings, std::size_t* begin, std::size_t* length) {
  std::string value;
  if (!json::decode_string(raw, &value)) return false;
  if (ascii) {
    for (const char c : value) {
      if (static_cast<unsigned char>(c) >= 0x80) return false;
    }
  }
  *begin = strings->size();
  *length = value.size();
  strings->append(value);
  return true;
}

// Printable ASCII other than a space: a character that no strip() takes away.
bool has_mark(std::string_view value) noexcept {
  for (const char c : value) {
    if (c > ' ' && c < 0x7F) return true;
  }
  return false;
}

// A JSON boolean into bit `seat` of `*mask`.
bool read_flag(Line& line, int seat, std::uint8_t* mask) noexcept {
  bool flag = false;
  if (!line.boolean(&flag)) return false;
  if (flag) *mask = static_cast<std::uint8_t>(*mask | 1u << seat);
  return true;
}

bool read_any_player(Line& line, int seat, Reading* reading) {
  ScannedRound& round = *reading->round;
  if (!line.take('{')) return false;
  // bit 0..2: front, middle, back; 3: name; 4: surrender; 5: fantasyland; 6: cards; 7: declare_natural
  unsigned seen = 0;
  std::uint8_t declare = 0;
  std::uint8_t* cards = reading->cards + seat * kCardsPerHand;
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      unsigned bit = 0;
      bool ok = false;
      int row = -1;
      if (key == "front") row = 0;
      else if (key == "middle") row = 1;
      else if (key == "back") row = 2;
      if (row >= 0) {
        bit = 1u << row;
        ok = read_row(line, kRowSize[row], cards + kRowStart[row], /*pack=*/true);
      } else if (key == "name") {
        bit = 8u;
        json::StringSpan span;
        ok = line.string(&span);
        round.named[seat] = true;
        if (ok && span.plain) {
          ok = usable_name(line.slice(span.begin, span.length));
          round.name_begin[seat] = span.begin;
          round.name_length[seat] = span.length;
        } else if (ok) {
          round.name_decoded[seat] = true;
          ok = decode_into(line.slice(span.begin, span.length), false, reading->strings, &round.name_begin[seat],
                           &round.name_length[seat]) &&
               has_mark(std::string_view(*reading->strings).substr(round.name_begin[seat], round.name_length[seat]));
        }
      } else if (key == "surrender") {
        bit = 16u;
        ok = read_flag(line, seat, &round.surrendered);
      } else if (key == "fantasyland") {
        bit = 32u;
        ok = read_flag(line, seat, &round.fantasyland);
      } else if (key == "cards") {
        bit = 64u;
        ok = read_row(line, kCardsPerHand, cards, /*pack=*/true);
      } else if (key == "declare_natural") {
        bit = 128u;
        ok = read_flag(line, 0, &declare);
      }
      if (!ok || (seen & bit) != 0) return false;
      seen |= bit;
    } while (line.take(','));
  }
  if (!line.take('}')) return false;
  if (declare != 0) round.declared = static_cast<std::uint8_t>(round.declared | 1u << seat);
  // Either a setting (front, middle and back, no declaration) or 13 cards (declared or in row order).
  return (seen & 71u) == 7u ? declare == 0 : (seen & 71u) == 64u;
}

bool read_any_players(Line& line, int max_players, Reading* reading) {
  ScannedRound& round = *reading->round;
  if (!line.take('[')) return false;
  int count = 0;
  if (!line.peek(']')) {
    do {
      if (count >= max_players) return false;
      if (!read_any_player(line, count, reading)) return false;
      ++count;
    } while (line.take(','));
  }
  if (!line.take(']') || count < kMinPlayers) return false;
  const std::string_view text = line.text();
  for (int a = 0; a < count; ++a) {
    char name_a[2], name_b[2];
    for (int b = a + 1; b < count; ++b) {
      if (round.name(text, *reading->strings, a, name_a) == round.name(text, *reading->strings, b, name_b)) {
        return false;
      }
    }
  }
  // Cards held twice and jokers are the core's to check against the rules' pack when the round is settled.
  round.players = count;
  return true;
}


bool read_stakes(Line& line, Reading* reading) noexcept {
  if (line.word("null")) return true;
  reading->has_stakes = true;
  if (!line.take('[')) return false;
  reading->stake_rows = 0;
  if (line.take(']')) return false;
  do {
    if (reading->stake_rows == kMaxPlayers) return false;
    std::size_t count = 0;
    std::int64_t* row = reading->stakes + reading->stake_rows * kMaxPlayers;
    if (!json::int64_list(line, row, kMaxPlayers, &count)) return false;
    // Every row as long as the first: the matrix is square, checked against the player count later.
    if (reading->stake_rows > 0 && count != reading->stake_columns) return false;
    reading->stake_columns = count;
    ++reading->stake_rows;
  } while (line.take(','));
  return line.take(']') && reading->stake_columns == reading->stake_rows;
}

bool read_any_round(Line& line, int max_players, bool read_rules, Reading* reading) {
  ScannedRound& round = *reading->round;
  if (!line.take('{')) return false;
  unsigned seen = 0;
  std::size_t stake_size = 0;
  if (!line.peek('}')) {
    do {
      std::string_view key;
      if (!line.key(&key)) return false;
      unsigned bit = 0;
      bool ok = false;
      if (key == "id") {
        bit = 1u;
        if (line.peek('"')) {
          json::StringSpan span;
          ok = line.string(&span);
          round.id.kind = RoundIdKind::kString;
          round.id.begin = span.begin;
          round.id.length = span.length;
          if (ok && !span.plain) {
            round.id.decoded = true;
            ok = decode_into(line.slice(span.begin, span.length), reading->ascii_output, reading->strings,
                             &round.id.begin, &round.id.length);
          }
        } else {
          round.id.kind = RoundIdKind::kInteger;
          ok = line.int64(&round.id.value);
        }
      } else if (key == "players") {
        bit = 2u;
        ok = read_any_players(line, max_players, reading);
      } else if (key == "rules") {
        bit = 4u;
        line.skip_space();
        const std::size_t start = line.pos();
        ok = line.skip_value();
        reading->has_rules = read_rules;
        reading->rules_begin = start;
        reading->rules_length = line.pos() - start;
      } else if (key == "stakes") {
        bit = 8u;
        ok = read_stakes(line, reading);
        stake_size = reading->stake_rows;
      } else if (key == "banker") {
        bit = 16u;
        if (line.word("null")) {
          ok = true;
        } else if (line.peek('"')) {
          json::StringSpan span;
          ok = line.string(&span);
          reading->banker_by_name = true;
          if (ok && span.plain) {
            reading->banker_name = line.slice(span.begin, span.length);
          } else if (ok) {
            ok = json::decode_string(line.slice(span.begin, span.length), &reading->banker_value);
            reading->banker_name = reading->banker_value;
          }
        } else {
          ok = line.int64(&round.banker) && round.banker >= 0;
        }
      } else if (key == "bets") {
        bit = 32u;
        if (line.word("null")) {
          ok = true;
        } else {
          reading->has_bets = true;
          std::size_t count = 0;
          ok = json::int64_list(line, reading->bets, kMaxPlayers, &count);
          reading->bet_count = count;
        }
      } else if (key == "expected" || key == "tags" || key == "note") {
        bit = key == "expected" ? 64u : key == "tags" ? 128u : 256u;
        ok = line.skip_value();
      }
      if (!ok || (seen & bit) != 0) return false;
      seen |= bit;
    } while (line.take(','));
  }
  if (!line.take('}') || (seen & 2u) == 0 || !line.done()) return false;
  const int players = round.players;
  const auto p = static_cast<std::size_t>(players);
  if (reading->has_stakes && stake_size != p) return false;
  if (reading->banker_by_name) {
    char name[2];
    round.banker = -1;
    for (int seat = 0; seat < players; ++seat) {
      if (round.name(line.text(), *reading->strings, seat, name) == reading->banker_name) round.banker = seat;
    }
    if (round.banker < 0) return false;
  }
  if (round.banker >= players) return false;
  if (reading->has_bets) {
    if (round.banker < 0 || reading->bet_count != p) return false;
    for (std::size_t k = 0; k < p; ++k) {
      if (reading->bets[k] < 1 || reading->bets[k] > kMaxBet) return false;
    }
  }
  return true;
}

bool has_high_byte(std::string_view text, std::size_t begin, std::size_t end) noexcept {
  // Eight bytes a step (the compiler does not vectorise the byte loop), the rest one by one.
  std::uint64_t high = 0;
  std::size_t k = begin;
  for (; end - k >= 8; k += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + k, sizeof word);
    high |= word;
  }
  for (; k < end; ++k) high |= static_cast<unsigned char>(text[k]);
  return (high & 0x8080808080808080ull) != 0;
}

}  // namespace

void scan_round_lines(std::string_view text, std::int64_t first_position, int max_players, bool read_rules,
                      bool ascii_output, RoundScan* out) {
  if (max_players > kMaxPlayers) max_players = kMaxPlayers;
  std::size_t lines = 1;
  for (std::size_t k = text.find('\n'); k != std::string_view::npos; k = text.find('\n', k + 1)) ++lines;
  out->line_feeds = lines - 1;
  out->rounds.clear();
  out->rounds.reserve(lines);
  // Room for every line's cards, kept from chunk to chunk and not cleared: a round's cards are read only
  // when the round was read whole, which wrote every one of them.
  const std::size_t card_room = lines * std::size_t{kMaxPlayers} * kCardsPerHand;
  if (out->cards.size() < card_room) out->cards.resize(card_room);
  out->stakes.clear();
  out->bets.clear();
  out->rules.clear();
  out->strings.clear();
  std::unordered_map<std::string_view, int> rules_index;
  std::size_t cards_used = 0;
  std::size_t line_number = 0;
  std::int64_t position = first_position;
  Reading reading{};
  for (std::size_t begin = 0; begin <= text.size(); ++line_number) {
    const std::size_t end = line_end(text, begin);
    if (!blank(text, begin, end)) {
      out->rounds.emplace_back();
      ScannedRound& round = out->rounds.back();
      round.line = line_number;
      round.begin = begin;
      round.end = end;
      reading = Reading{};
      reading.strings = &out->strings;
      reading.ascii_output = ascii_output;
      reading.round = &round;
      reading.cards = out->cards.data() + cards_used;
      Line line(text, begin, end);
      bool ok = (!has_high_byte(text, begin, end) || json::valid_utf8(text.substr(begin, end - begin))) &&
                read_any_round(line, max_players, read_rules, &reading);
      if (ok && max_players < kMinPlayers) ok = false;
      if (ok) {
        round.read = true;
        round.cards = cards_used;
        cards_used += static_cast<std::size_t>(round.players) * kCardsPerHand;
        if (round.id.kind == RoundIdKind::kPosition) round.id.value = position;
        const auto p = static_cast<std::size_t>(round.players);
        if (reading.has_stakes) {
          round.stakes = out->stakes.size();
          for (std::size_t i = 0; i < p; ++i) {
            out->stakes.insert(out->stakes.end(), reading.stakes + i * kMaxPlayers, reading.stakes + i * kMaxPlayers + p);
          }
        }
        if (reading.has_bets) {
          round.bets = out->bets.size();
          out->bets.insert(out->bets.end(), reading.bets, reading.bets + p);
        }
        if (reading.has_rules) {
          const std::string_view value = text.substr(reading.rules_begin, reading.rules_length);
          const auto found = rules_index.find(value);
          if (found != rules_index.end()) {
            round.rules = found->second;
          } else {
            round.rules = static_cast<int>(out->rules.size());
            rules_index.emplace(value, round.rules);
            out->rules.emplace_back(reading.rules_begin, reading.rules_length);
          }
        }
      } else {
        const std::size_t keep_line = round.line, keep_begin = round.begin, keep_end = round.end;
        round = ScannedRound{};
        round.line = keep_line;
        round.begin = keep_begin;
        round.end = keep_end;
      }
      ++position;
    }
    begin = end + 1;
  }
}

namespace {

// The inputs of the rounds `group` of `scan` (all of one player count), gathered for settle_batch.
struct GroupInputs {
  std::vector<std::uint8_t> cards, surrendered, fantasyland, declared;
  std::vector<std::int64_t> stakes, banker, bets;
  BatchInputs inputs;

  void gather(const RoundScan& scan, const std::size_t* group, std::size_t count, int players) {
    const auto p = static_cast<std::size_t>(players);
    cards.resize(count * p * kCardsPerHand);
    bool any_declared = false, any_stakes = false, any_surrender = false, any_fantasyland = false, any_banker = false, any_bets = false;
    for (std::size_t k = 0; k < count; ++k) {
      const ScannedRound& round = scan.rounds[group[k]];
      std::memcpy(cards.data() + k * p * kCardsPerHand, scan.cards.data() + round.cards, p * kCardsPerHand);
      any_stakes |= round.stakes != ScannedRound::kNone;
      any_surrender |= round.surrendered != 0;
      any_declared |= round.declared != 0;
      any_fantasyland |= round.fantasyland != 0;
      any_banker |= round.banker >= 0;
      any_bets |= round.bets != ScannedRound::kNone;
    }
    inputs = BatchInputs{};
    if (any_stakes) {
      stakes.assign(count * p * p, 1);
      for (std::size_t k = 0; k < count; ++k) {
        const ScannedRound& round = scan.rounds[group[k]];
        if (round.stakes != ScannedRound::kNone) {
          std::memcpy(stakes.data() + k * p * p, scan.stakes.data() + round.stakes, p * p * sizeof(std::int64_t));
        }
      }
      inputs.stakes = stakes.data();
    }
    if (any_surrender || any_fantasyland || any_declared) {
      surrendered.assign(count * p, 0);
      fantasyland.assign(count * p, 0);
      declared.assign(count * p, 0);
      for (std::size_t k = 0; k < count; ++k) {
        const ScannedRound& round = scan.rounds[group[k]];
        for (std::size_t s = 0; s < p; ++s) {
          surrendered[k * p + s] = static_cast<std::uint8_t>(round.surrendered >> s & 1u);
          fantasyland[k * p + s] = static_cast<std::uint8_t>(round.fantasyland >> s & 1u);
          declared[k * p + s] = static_cast<std::uint8_t>(round.declared >> s & 1u);
        }
      }
      if (any_surrender) inputs.surrendered = surrendered.data();
      if (any_fantasyland) inputs.fantasyland = fantasyland.data();
      if (any_declared) inputs.declared = declared.data();
    }
    if (any_banker) {
      banker.assign(count, -1);
      bets.assign(count * p, 1);
      for (std::size_t k = 0; k < count; ++k) {
        const ScannedRound& round = scan.rounds[group[k]];
        banker[k] = round.banker;
        if (round.bets != ScannedRound::kNone) {
          std::memcpy(bets.data() + k * p, scan.bets.data() + round.bets, p * sizeof(std::int64_t));
        }
      }
      inputs.banker = banker.data();
      if (any_bets) inputs.bets = bets.data();
    }
  }
};

// A string value as JSON the way Python's json.dumps writes it without ensure_ascii: the quote, the
// backslash and the control characters escaped (the common ones by letter, the rest as \u00XX in lower
// case), every other byte as it is.
char* write_json_string(std::string_view value, char* at) noexcept {
  constexpr char kHexDigits[] = "0123456789abcdef";
  *at++ = '"';
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    char letter = 0;
    switch (c) {
      case '"': letter = '"'; break;
      case '\\': letter = '\\'; break;
      case '\n': letter = 'n'; break;
      case '\r': letter = 'r'; break;
      case '\t': letter = 't'; break;
      case '\b': letter = 'b'; break;
      case '\f': letter = 'f'; break;
      default: break;
    }
    if (letter != 0) {
      *at++ = '\\';
      *at++ = letter;
    } else if (byte < 0x20) {
      std::memcpy(at, "\\u00", 4);
      at[4] = kHexDigits[byte >> 4];
      at[5] = kHexDigits[byte & 15];
      at += 6;
    } else {
      *at++ = c;
    }
  }
  *at++ = '"';
  return at;
}

}  // namespace

void settle_scanned_net(std::string_view text, RoundScan* scan, const std::vector<const RulesSpec*>& rules,
                        const RulesSpec& fallback, const Parallel& parallel, std::string* out,
                        std::vector<std::size_t>* ends) {
  const std::size_t total = scan->rounds.size();
  // Group the read rounds by (rules, player count, whether the round has per-round inputs), each group in
  // input order: a counting sort by key. The rounds without inputs form groups of their own, which the
  // batch settles by its net-only kernel where the rules allow it.
  const std::size_t kinds = (rules.size() + 1) * (kMaxPlayers + 1) * 2;
  std::vector<std::size_t> start(kinds + 1, 0);
  auto key_of = [&](const ScannedRound& round) {
    const std::size_t kind =
        static_cast<std::size_t>(round.rules + 1) * (kMaxPlayers + 1) + static_cast<std::size_t>(round.players);
    return kind * 2 + (round.has_inputs() ? 1 : 0);
  };
  for (ScannedRound& round : scan->rounds) {
    if (!round.read) continue;
    const RulesSpec* spec = round.rules >= 0 ? rules[static_cast<std::size_t>(round.rules)] : &fallback;
    if (spec == nullptr) {
      round.read = false;
      continue;
    }
    ++start[key_of(round) + 1];
  }
  for (std::size_t k = 0; k < kinds; ++k) start[k + 1] += start[k];
  std::vector<std::size_t> order(start[kinds]);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t r = 0; r < total; ++r) {
      if (scan->rounds[r].read) order[fill[key_of(scan->rounds[r])]++] = r;
    }
  }
  // Net units per round, at each round's own offset (players per round differ).
  std::vector<std::size_t> net_at(total + 1, 0);
  for (std::size_t r = 0; r < total; ++r) {
    net_at[r + 1] = net_at[r] + static_cast<std::size_t>(scan->rounds[r].read ? scan->rounds[r].players : 0);
  }
  std::vector<std::int64_t> net(net_at[total]);
  std::vector<std::int64_t> group_net;
  GroupInputs gathered;
  for (std::size_t kind = 0; kind < kinds; ++kind) {
    const std::size_t count = start[kind + 1] - start[kind];
    if (count == 0) continue;
    const std::size_t* group = order.data() + start[kind];
    const int players = scan->rounds[group[0]].players;
    const int rules_index = scan->rounds[group[0]].rules;
    const RulesSpec& spec = rules_index >= 0 ? *rules[static_cast<std::size_t>(rules_index)] : fallback;
    const auto p = static_cast<std::size_t>(players);
    gathered.gather(*scan, group, count, players);
    group_net.resize(count * p);
    BatchOutputs outputs;
    outputs.net = group_net.data();
    SettleError error =
        settle_batch(gathered.cards.data(), count, players, spec, gathered.inputs, outputs, parallel);
    if (error) {
      // Some round is rejected: each is settled on its own, and those the core rejects are left.
      for (std::size_t k = 0; k < count; ++k) {
        GroupInputs one;
        one.gather(*scan, group + k, 1, players);
        BatchOutputs single;
        single.net = group_net.data() + k * p;
        if (settle_batch(one.cards.data(), 1, players, spec, one.inputs, single, Parallel{})) {
          scan->rounds[group[k]].read = false;
        }
      }
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (scan->rounds[group[k]].read) {
        std::memcpy(net.data() + net_at[group[k]], group_net.data() + k * p, p * sizeof(std::int64_t));
      }
    }
  }
  // The lines, in input order.
  constexpr std::string_view kHead = "{\"id\":", kMiddle = ",\"net\":[", kTail = "]}\n";
  std::size_t room = 0;
  for (const ScannedRound& round : scan->rounds) {
    if (!round.read) continue;
    // An escaped byte takes at most 6 (\u001f).
    const std::size_t id_room = round.id.decoded ? round.id.length * 6 + 2 : round.id.length + 2;
    room += kHead.size() + (round.id.kind == RoundIdKind::kString ? id_room : kIntChars) + kMiddle.size() +
            static_cast<std::size_t>(round.players) * (kIntChars + 1) + kTail.size();
  }
  const std::size_t first = out->size();
  out->resize(first + room);
  char* const base = &(*out)[0];
  char* at = base + first;
  char* const end = at + room;
  ends->assign(total, 0);
  for (std::size_t r = 0; r < total; ++r) {
    const ScannedRound& round = scan->rounds[r];
    if (round.read) {
      std::memcpy(at, kHead.data(), kHead.size());
      at += kHead.size();
      if (round.id.kind == RoundIdKind::kString && round.id.decoded) {
        at = write_json_string(std::string_view(scan->strings).substr(round.id.begin, round.id.length), at);
      } else if (round.id.kind == RoundIdKind::kString) {
        *at++ = '"';
        std::memcpy(at, text.data() + round.id.begin, round.id.length);
        at += round.id.length;
        *at++ = '"';
      } else {
        at = write_int(at, end, round.id.value);
      }
      std::memcpy(at, kMiddle.data(), kMiddle.size());
      at += kMiddle.size();
      for (std::size_t s = 0; s < static_cast<std::size_t>(round.players); ++s) {
        if (s > 0) *at++ = ',';
        at = write_int(at, end, net[net_at[r] + s]);
      }
      std::memcpy(at, kTail.data(), kTail.size());
      at += kTail.size();
    }
    (*ends)[r] = static_cast<std::size_t>(at - base);
  }
  out->resize(static_cast<std::size_t>(at - base));
}

}  // namespace chinese_poker
