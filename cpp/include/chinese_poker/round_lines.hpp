// A strict reader for the common shape of JSON Lines rounds (docs/JSON_FORMAT.md), and the writer of
// their net lines. The service's batch endpoint uses it as a fast path: it reads only what it understands
// completely and says "not simple" for everything else, and the caller then takes its general path, which
// gives every answer and every error message. So this reader never reports what is wrong with a round.
//
// A simple line (after an optional UTF-8 byte order mark at the start of the text) is an object with
// optional "id" (an integer within int64, or a string of printable ASCII without escapes) and "players":
// 2 to max_players objects, each with "front", "middle" and "back" (a card text string, or a list of card
// strings and codes 0..51) and optionally "name" (printable ASCII without escapes, not only spaces, unique
// in the round beside the default names P1, P2, ...). No other key, no key twice, no escape, no byte
// outside ASCII except in card text (where the card parser reads only the suit symbols and separators),
// no joker, no card twice in a round, 3, 5 and 5 cards, and every round with the same number of players.
// White space between tokens is JSON's (space, tab, CR); a line of only ASCII white space (also VT and FF)
// is blank and skipped, as the general reader skips it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// How a round's id was given: not at all (its 1-based position among the non-blank lines stands in), as
// an integer, or as a string whose bytes need no escape.
enum class RoundIdKind : std::uint8_t { kPosition, kInteger, kString };

struct RoundLineId {
  RoundIdKind kind = RoundIdKind::kPosition;
  std::int64_t value = 0;   // kPosition: the position; kInteger: the integer
  std::size_t begin = 0;    // kString: the bytes between the quotes, as an offset into the text
  std::size_t length = 0;
};

struct RoundLines {
  int players = 0;                  // every round's number of players
  std::size_t rounds = 0;           // rounds read (at most max_rounds)
  std::vector<std::uint8_t> cards;  // rounds x players x 13: front 3, middle 5, back 5
  std::vector<RoundLineId> ids;     // one per round
  bool more = false;                // a further non-blank line follows the max_rounds rounds read
};

// Reads the rounds of `text` into `out`, at most `max_rounds` of them (a further non-blank line only sets
// `more`, unread); true when every line read is simple (see above) and there is at least one round, false
// otherwise (then `out` is unspecified). Allocates once per call (sized by the text), never per round.
[[nodiscard]] bool read_round_lines(std::string_view text, std::size_t max_rounds, int max_players,
                                    RoundLines* out);

// Appends to `out` one line per round of `lines` (read from `text`): {"id":ID,"net":[N1,...]} and "\n",
// compact, the id as the round gave it (its position when it gave none), `net` the rounds x players net
// units. The same bytes as the service's and the command line's writer for the same rounds.
void write_net_lines(std::string_view text, const RoundLines& lines, const std::int64_t* net, std::string* out);

// read_round_lines, settle_batch under `rules` (nobody declares or surrenders, stakes 1) and
// write_net_lines: true and the lines in `out` (and `*more`), or false when the text is not simple, the
// rules' pack is not one plain 52-card deck (added suits or jokers), or the core rejects a round.
[[nodiscard]] bool settle_net_lines(std::string_view text, const RulesSpec& rules, std::size_t max_rounds,
                                    int max_players, const Parallel& parallel, std::string* out, bool* more);

}  // namespace chinese_poker
