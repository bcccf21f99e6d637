// The fast path of the service's JSON Lines batches (cpp/include/chinese_poker/round_lines.hpp): read the
// common shape of rounds, settle them and write their net lines, the GIL released; None whenever the body
// is not of that shape, so that the caller takes its general path.
#include <cstring>
#include <string>
#include <string_view>

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>
#include <vector>

#include "chinese_poker/round_lines.hpp"
#include "chinese_poker/round_output.hpp"
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
// The output of a chunk, where each round's output ends (native uint64, as bytes), and the rounds left to
// the general path as (round index, 0-based line in the chunk, first byte, end byte).
using ChunkAnswer =
    py::typing::Tuple<py::bytes, py::bytes, py::typing::List<py::typing::Tuple<int, int, int, int>>>;
using Resolver = py::typing::Callable<py::typing::List<py::typing::Optional<RulesSpec>>(py::typing::List<py::bytes>)>;
using FullResolver =
    py::typing::Callable<py::typing::List<py::typing::Optional<HeldOutputRules>>(py::typing::List<py::bytes>)>;

int player_limit(int max_players) {
  if (max_players < kMinPlayers || max_players > kMaxPlayers) {
    throw py::value_error("max_players must be 2 to 6, got " + std::to_string(max_players));
  }
  return max_players;
}

// A chunk scanned with the GIL released, then its distinct "rules" values resolved by `resolve` under the
// GIL: `rules[k]` the resolved value of scan.rules[k] cast to T, or null where `resolve` gave None.
template <class T>
struct ResolvedChunk {
  RoundScan scan;
  std::vector<T> held;
  std::vector<const T*> rules;

  template <class Resolve>
  ResolvedChunk(std::string_view text, std::int64_t first_position, int max_players, bool read_rules,
                bool ascii_output, const Resolve& resolve) {
    {
      py::gil_scoped_release release;
      scan_round_lines(text, first_position, max_players, read_rules, ascii_output, &scan);
    }
    rules.assign(scan.rules.size(), nullptr);
    if (scan.rules.empty()) return;
    py::list values;
    for (const auto& [begin, length] : scan.rules) values.append(py::bytes(text.substr(begin, length)));
    const py::list resolved = resolve(values);
    if (resolved.size() != rules.size()) throw py::value_error("the resolver must give one rules per value");
    held.reserve(rules.size());  // no reallocation below: the pointers stay valid
    for (std::size_t k = 0; k < rules.size(); ++k) {
      if (resolved[k].is_none()) continue;
      held.push_back(resolved[k].template cast<T>());
      rules[k] = &held.back();
    }
  }

  // (lines, ends, left) as the chunk functions answer: `ends` as native unsigned 64-bit integers (bytes, so
  // that reading a chunk needs no numpy), and the rounds left to the general path as (round index, line in
  // the chunk, first byte, end byte).
  py::tuple answer(const std::string& out, const std::vector<std::size_t>& ends) const {
    std::vector<std::uint64_t> wide(ends.begin(), ends.end());
    const py::bytes line_ends(reinterpret_cast<const char*>(wide.data()), wide.size() * sizeof(std::uint64_t));
    py::list left;
    for (std::size_t r = 0; r < scan.rounds.size(); ++r) {
      const ScannedRound& round = scan.rounds[r];
      if (!round.read) left.append(py::make_tuple(r, round.line, round.begin, round.end));
    }
    return py::make_tuple(py::bytes(out), line_ends, left);
  }
};

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
  m.def(
      "settle_net_chunk",
      [](const py::bytes& chunk, std::int64_t first_position, int max_players, bool read_rules,
         const Resolver& resolve, const RulesSpec& fallback, const py::object& threads,
         bool ascii_output) -> ChunkAnswer {
        check_rules(fallback);
        const int players_limit = player_limit(max_players);
        const Parallel parallel = parallel_from(threads);
        const std::string_view text = chunk;
        ResolvedChunk<RulesSpec> read(text, first_position, players_limit, read_rules, ascii_output, resolve);
        for (const RulesSpec* spec : read.rules) {
          if (spec != nullptr) check_rules(*spec);
        }
        std::string out;
        std::vector<std::size_t> ends;
        {
          py::gil_scoped_release release;
          settle_scanned_net(text, &read.scan, read.rules, fallback, parallel, &out, &ends);
        }
        return ChunkAnswer(read.answer(out, ends));
      },
      py::arg("chunk"), py::arg("first_position"), py::arg("max_players"), py::arg("read_rules"),
      py::arg("resolve"), py::arg("fallback"), py::arg("threads") = 1, py::arg("ascii_output") = false,
      "Whole JSON Lines (no byte order mark) read, settled and written as net lines, every round the reader\n"
      "takes (cpp/include/chinese_poker/round_lines.hpp, scan_round_lines), the GIL released but for\n"
      "`resolve`: called once with the distinct `rules` values (bytes) when read_rules, it gives each one's\n"
      "rules or None. `fallback`: the rules of a round naming none; `first_position`: the first round's\n"
      "1-based position in its file. (lines, ends, left): ends, native uint64 as bytes, ends[r] where round\n"
      "r's line ends in lines (a left round writes none); left the rounds for the general path as (round,\n"
      "line, begin, end). ascii_output:\n"
      "leave to the general path every round whose id is not ASCII (the lines are then ASCII).");
  m.def(
      "write_full_chunk",
      [](const py::bytes& chunk, std::int64_t first_position, int max_players, bool read_rules,
         const FullResolver& resolve, const HeldOutputRules& fallback, const std::string& engine_version,
         bool ascii_only, bool indented, const py::object& threads) -> ChunkAnswer {
        const int players_limit = player_limit(max_players);
        const Parallel parallel = parallel_from(threads);
        const std::string_view text = chunk;
        ResolvedChunk<HeldOutputRules> read(text, first_position, players_limit, read_rules, false, resolve);
        std::vector<const OutputRules*> rules(read.rules.size(), nullptr);
        std::vector<OutputRules> views;
        views.reserve(read.rules.size());
        for (std::size_t k = 0; k < rules.size(); ++k) {
          if (read.rules[k] == nullptr) continue;
          views.push_back(read.rules[k]->view());
          rules[k] = &views.back();
        }
        const OutputRules fallback_view = fallback.view();
        RoundOutputFormat format;
        format.engine_version = engine_version;
        format.ascii_only = ascii_only;
        format.indented = indented;
        std::string out;
        std::vector<std::size_t> ends;
        {
          py::gil_scoped_release release;
          write_scanned_full(text, &read.scan, rules, fallback_view, format, parallel, &out, &ends);
        }
        return ChunkAnswer(read.answer(out, ends));
      },
      py::arg("chunk"), py::arg("first_position"), py::arg("max_players"), py::arg("read_rules"),
      py::arg("resolve"), py::arg("fallback"), py::arg("engine_version"), py::arg("ascii_only") = false,
      py::arg("indented") = false, py::arg("threads") = 1,
      "Whole JSON Lines (no byte order mark) read, settled and written as their full output\n"
      "(docs/JSON_FORMAT.md), every round the reader takes (as settle_net_chunk), the GIL released but for\n"
      "`resolve`: called once with the distinct `rules` values (bytes) when read_rules, it gives each one's\n"
      "OutputRules or None. `fallback`: the OutputRules of a round naming none. ascii_only: every non-ASCII\n"
      "character escaped; indented: each round as an item of a list dumped with indent 2, preceded by\n"
      "',\\n  ' (else compact, each round then a newline). (text, ends, left) as settle_net_chunk answers;\n"
      "the bytes do not depend on `threads`.");
}

}  // namespace chinese_poker::bindings
