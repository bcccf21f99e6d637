// The fast path of the service's JSON Lines batches (cpp/include/chinese_poker/round_lines.hpp): read the
// common shape of rounds, settle them and write their net lines, the GIL released; None whenever the body
// is not of that shape, so that the caller takes its general path.
#include <cstring>
#include <string>
#include <string_view>

#include <pybind11/typing.h>

#include "chinese_poker/round_lines.hpp"
#include "chinese_poker/settle.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

std::size_t round_limit(py::ssize_t max_rounds) {
  if (max_rounds < 1) throw py::value_error("max_rounds must be at least 1, got " + std::to_string(max_rounds));
  return static_cast<std::size_t>(max_rounds);
}

// The answers as the signatures (and the stub) spell them: a tuple, or None.
using ReadAnswer = py::typing::Optional<
    py::typing::Tuple<py::array_t<std::uint8_t>, py::typing::List<py::typing::Union<py::int_, py::str>>, bool>>;
using SettleAnswer = py::typing::Optional<py::typing::Tuple<py::bytes, bool>>;

int player_limit(int max_players) {
  if (max_players < kMinPlayers || max_players > kMaxPlayers) {
    throw py::value_error("max_players must be 2 to 6, got " + std::to_string(max_players));
  }
  return max_players;
}

}  // namespace

void register_round_lines(py::module_& m) {
  m.def(
      "read_round_lines",
      [](const py::bytes& body, py::ssize_t max_rounds, int max_players) -> ReadAnswer {
        const std::size_t rounds_limit = round_limit(max_rounds);
        const int players_limit = player_limit(max_players);
        const std::string_view text = body;
        RoundLines lines;
        bool ok = false;
        {
          py::gil_scoped_release release;
          ok = read_round_lines(text, rounds_limit, players_limit, &lines);
        }
        if (!ok) return ReadAnswer(py::none());
        py::array_t<std::uint8_t> cards({static_cast<py::ssize_t>(lines.rounds),
                                         static_cast<py::ssize_t>(lines.players), py::ssize_t{13}});
        std::memcpy(cards.mutable_data(), lines.cards.data(), lines.cards.size());
        py::list ids;
        for (const RoundLineId& id : lines.ids) {
          if (id.kind == RoundIdKind::kString) {
            ids.append(py::str(text.substr(id.begin, id.length)));
          } else {
            ids.append(py::int_(id.value));
          }
        }
        return ReadAnswer(py::make_tuple(cards, ids, lines.more));
      },
      py::arg("body"), py::arg("max_rounds"), py::arg("max_players"),
      "The rounds of a JSON Lines body of the common shape (players with front, middle and back, optional\n"
      "name, optional round id; docs/SERVICE.md): (cards uint8 (R, P, 13), ids, more), ids each the round's\n"
      "id or its 1-based position, more: a further round follows the max_rounds read. None when any line is\n"
      "of another shape (or a card is bad or repeated): the general reader then says what. Releases the GIL.");

  m.def(
      "settle_net_lines",
      [](const py::bytes& body, const RulesSpec& rules, py::ssize_t max_rounds, int max_players,
         const py::object& threads) -> SettleAnswer {
        check_rules(rules);
        const std::size_t rounds_limit = round_limit(max_rounds);
        const int players_limit = player_limit(max_players);
        const Parallel parallel = parallel_from(threads);
        const std::string_view text = body;
        std::string out;
        bool more = false, ok = false;
        {
          py::gil_scoped_release release;
          ok = settle_net_lines(text, rules, rounds_limit, players_limit, parallel, &out, &more);
        }
        if (!ok) return SettleAnswer(py::none());
        return SettleAnswer(py::make_tuple(py::bytes(out), more));
      },
      py::arg("body"), py::arg("rules"), py::arg("max_rounds"), py::arg("max_players"), py::arg("threads") = 1,
      "A JSON Lines body of the common shape (see read_round_lines) settled under `rules` and written as net\n"
      "lines, {\"id\":ID,\"net\":[...]} each (docs/JSON_FORMAT.md): (lines bytes, more). None when the body\n"
      "is of another shape, the rules add suits or jokers, or the core rejects a round. Releases the GIL.");
}

}  // namespace chinese_poker::bindings
