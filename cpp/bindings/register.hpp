// One register_* function per concept of the core; module.cpp calls them all. Shared here: the argument
// checks of batch calls and the one exception type for bad input.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"
#include "chinese_poker/settle.hpp"

namespace chinese_poker::bindings {

void register_errors(pybind11::module_& m);
void register_cards(pybind11::module_& m);
void register_evaluate(pybind11::module_& m);
void register_rules(pybind11::module_& m);
void register_settle(pybind11::module_& m);
void register_arrange(pybind11::module_& m);
void register_round_lines(pybind11::module_& m);
void register_round_output(pybind11::module_& m);
void register_fair(pybind11::module_& m);
void register_ofc(pybind11::module_& m);
void register_arrow(pybind11::module_& m);

// The card parser: a card text or an iterable of card strings and codes, repeats rejected (ValueError or
// TypeError naming the token and its position), except that a card of a suit in `extra_suits` (bit s for
// suit code s: a pack with that suit added) may appear twice.
// A joker (X1, X2: codes 52, 53) beyond the first `jokers` is a ValueError naming it and its position.
std::vector<std::uint8_t> parse_cards_object(pybind11::handle cards, unsigned extra_suits = 0, int jokers = 0);

// The suits of an extra_suits text ("", "s", "hs", ...; letters c d h s, each once, at most two) as bits by
// suit code; ValueError naming `name` otherwise.
unsigned suit_bits(const pybind11::object& text, const char* name);
// The text of such bits, in the order c d h s.
std::string suit_letters(unsigned bits);

// Checks a batch argument up front, numpy-ufunc style: a C-contiguous uint8 numpy array with `ndim`
// dimensions whose last dimension is one of `last_dims`; TypeError or ValueError naming `name` otherwise.
pybind11::array_t<std::uint8_t> require_card_array(const pybind11::object& obj, const char* name, int ndim,
                                                   std::initializer_list<pybind11::ssize_t> last_dims);

// A batch argument other than cards: a C-contiguous numpy array of dtype `dtype` and exactly `shape`;
// TypeError (not an array, another dtype) or ValueError (another shape, not contiguous) naming `name`,
// what it must be and what it is. `shape_text` spells the expected shape, e.g. "(R, P) = (10, 4)".
void require_array(const pybind11::object& obj, const char* name, const pybind11::dtype& dtype,
                   const std::vector<pybind11::ssize_t>& shape, const std::string& shape_text);

// The shape of `arr` as Python prints it: "(3, 4)", "(5,)".
std::string shape_of(const pybind11::array& arr);

// The `threads` argument of a batch call: an int from 0 (every available core) to kMaxThreads; TypeError or
// ValueError naming `threads` otherwise.
Parallel parallel_from(const pybind11::object& threads);

// ValueError if the core's own check rejects `rules` (every RulesSpec setter already checks its value).
void check_rules(const RulesSpec& rules);

// Where bad input was found, by index; -1 where it does not apply. Python turns indices into names.
struct Where {
  std::int64_t item = -1;  // the batch row, hand or round
  int player = -1;
  int other = -1;          // the other player (a card held twice, a stake of a pair)
  int position = -1;       // index of the card within the player's 13 (or within the row)
  int card = -1;
};

// Raises chinese_poker._core.InputError (a ValueError) with `message` and the fields of `where` as
// attributes (item, player, other, position, card: None where they do not apply) and `kind`.
[[noreturn]] void raise_input_error(const char* kind, const std::string& message, const Where& where);

// The 13 card codes of a single-hand call (bytes of codes); ValueError naming `what` for another count.
const std::uint8_t* thirteen_codes(const pybind11::bytes& cards, const char* what);

// Raises the InputError for a CardIssue, naming the group as `item_label` ("row", "hand", "round", or ""
// for a single call). `by_player`: the group is players x 13 cards, so the position names a player and an
// index within its 13 (and a repeat names the other holder).
[[noreturn]] void raise_card_issue(const CardIssue& issue, const char* item_label, bool by_player);

// Raises the InputError of a round the core rejected, worded by its status: `stakes` (players x players),
// `bets` and `banker` point at that round's values where the batch gave them (nullptr otherwise).
[[noreturn]] void raise_settle_error(const SettleError& error, const RulesSpec& rules, const std::int64_t* stakes,
                                     int players, const std::int64_t* bets = nullptr,
                                     const std::int64_t* banker = nullptr);

}  // namespace chinese_poker::bindings
