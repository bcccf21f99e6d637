// The provably fair deal's kernel (cpp/include/chinese_poker/fair.hpp): SHA-256, HMAC-SHA256 and deals,
// byte strings in and out. chinese_poker.fair checks every argument and builds the message prefix; the
// checks here only keep the kernel within its buffers.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include "chinese_poker/audit_lines.hpp"
#include "chinese_poker/fair.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

constexpr std::size_t kMaxPack = 80;

std::string_view view(const py::bytes& data) {
  char* at = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(data.ptr(), &at, &size) != 0) throw py::error_already_set();
  return {at, static_cast<std::size_t>(size)};
}

const std::uint8_t* bytes_of(std::string_view data) { return reinterpret_cast<const std::uint8_t*>(data.data()); }

py::bytes digest_bytes(const fair::Digest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

// The deal's arguments as the kernel takes them; ValueError for a pack or count out of its bounds.
struct DealArgs {
  std::string key;
  std::vector<std::uint8_t> prefix, pack;
  int count;

  DealArgs(const py::bytes& key_bytes, const py::bytes& prefix_bytes, const py::bytes& pack_bytes, int cards)
      : key(view(key_bytes)), count(cards) {
    const std::string_view p = view(prefix_bytes), k = view(pack_bytes);
    prefix.assign(bytes_of(p), bytes_of(p) + p.size());
    pack.assign(bytes_of(k), bytes_of(k) + k.size());
    if (pack.size() < 2 || pack.size() > kMaxPack) {
      throw py::value_error("fair_deal: the pack must hold 2 to 80 cards, got " + std::to_string(pack.size()));
    }
    if (count < 1 || static_cast<std::size_t>(count) > pack.size()) {
      throw py::value_error("fair_deal: count must be 1 to the pack's size, got " + std::to_string(count));
    }
  }

  void deal(std::uint64_t nonce, std::uint8_t* out) const {
    fair::deal(bytes_of(key), key.size(), prefix, nonce, pack, count, out);
  }
};

// The first bytes of every deal's HMAC message (chinese_poker.fair.DOMAIN).
constexpr std::string_view kDomain = "chinese-poker/deal/v1";
constexpr Py_ssize_t kMinServerSeed = 16, kMaxServerSeed = 64, kMaxClientSeeds = 16, kMaxClientSeed = 64;
constexpr int kHand = 13;

// A bytes object of kMin..kMax bytes (exactly bytes: the general path takes the other buffers).
bool seed_view(PyObject* value, Py_ssize_t least, Py_ssize_t most, std::string_view* out) {
  if (!PyBytes_CheckExact(value)) return false;
  const Py_ssize_t size = PyBytes_GET_SIZE(value);
  if (size < least || size > most) return false;
  *out = {PyBytes_AS_STRING(value), static_cast<std::size_t>(size)};
  return true;
}

// chinese_poker.fair.deal for arguments of the usual types and within their bounds: the (players, 13)
// array, or None for anything else (the caller's general path then raises the error naming it).
using DealAnswer = py::typing::Optional<py::array_t<std::uint8_t>>;

DealAnswer deal_seats(py::handle server_seed, py::handle client_seeds, py::handle nonce, py::handle pack,
                      py::handle players, int most) {
  std::string_view key, cards;
  if (!seed_view(server_seed.ptr(), kMinServerSeed, kMaxServerSeed, &key)) return DealAnswer(py::none());
  if (!seed_view(pack.ptr(), 2, static_cast<Py_ssize_t>(kMaxPack), &cards)) return DealAnswer(py::none());
  PyObject* seeds = client_seeds.ptr();
  const bool is_list = PyList_CheckExact(seeds) != 0;
  if (!is_list && PyTuple_CheckExact(seeds) == 0) return DealAnswer(py::none());
  const Py_ssize_t count = Py_SIZE(seeds);
  if (count < 1 || count > kMaxClientSeeds) return DealAnswer(py::none());
  // DOMAIN || u8(k) || (u8(len) || seed) for each client seed: at most 21 + 1 + 16 * 65 bytes.
  std::uint8_t prefix[kDomain.size() + 1 + kMaxClientSeeds * (kMaxClientSeed + 1)];
  std::memcpy(prefix, kDomain.data(), kDomain.size());
  std::size_t size = kDomain.size();
  prefix[size++] = static_cast<std::uint8_t>(count);
  for (Py_ssize_t k = 0; k < count; ++k) {
    PyObject* item = is_list ? PyList_GET_ITEM(seeds, k) : PyTuple_GET_ITEM(seeds, k);
    std::string_view seed;
    if (!seed_view(item, 1, kMaxClientSeed, &seed)) return DealAnswer(py::none());
    prefix[size++] = static_cast<std::uint8_t>(seed.size());
    std::memcpy(prefix + size, seed.data(), seed.size());
    size += seed.size();
  }
  if (!PyLong_CheckExact(nonce.ptr()) || !PyLong_CheckExact(players.ptr())) return DealAnswer(py::none());
  const unsigned long long number = PyLong_AsUnsignedLongLong(nonce.ptr());
  if (number == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr) {
    PyErr_Clear();  // negative or past 2**64 - 1: the general path names it
    return DealAnswer(py::none());
  }
  const long seats = PyLong_AsLong(players.ptr());
  if (seats == -1 && PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    return DealAnswer(py::none());
  }
  if (seats < 2 || seats > most || seats * kHand > static_cast<long>(cards.size())) return DealAnswer(py::none());
  py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(seats), py::ssize_t{kHand}});
  fair::deal(bytes_of(key), key.size(), prefix, size, static_cast<std::uint64_t>(number), bytes_of(cards),
             static_cast<int>(cards.size()), static_cast<int>(seats) * kHand, out.mutable_data());
  return DealAnswer(std::move(out));
}

// A string of the receipt body that is written without escapes: printable ASCII, no '"' or '\\'.
std::string plain_text(const std::string& text, const char* what) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
      throw py::value_error(std::string("FairAudit: ") + what + " must be printable ASCII without quotes");
    }
  }
  return text;
}

// The audit's configuration, checked and built once for every block of a log (a block is a read of the
// file: building the rules for each cost as much as auditing a few dozen lines).
class FairAudit {
 public:
  FairAudit(const std::vector<std::string>& names, const std::vector<RulesSpec>& specs,
            const std::vector<std::string>& digests, const std::string& engine_name, const std::string& engine_version,
            const std::string& receipt_format, const py::bytes& key) {
    if (names.size() != specs.size() || names.size() != digests.size()) {
      throw py::value_error("FairAudit: names, specs and digests must be as long as each other");
    }
    for (std::size_t k = 0; k < names.size(); ++k) {
      check_rules(specs[k]);
      if (specs[k].extra_suits != 0 || specs[k].jokers != 0 || specs[k].fantasyland != Fantasyland::kOff) {
        throw py::value_error("FairAudit: rules " + names[k] + " are not of one plain pack without fantasyland");
      }
      const std::string& digest = digests[k];
      if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
        throw py::value_error("FairAudit: a digest must be 64 lowercase hex digits");
      }
      config_.rules.push_back(AuditRules{plain_text(names[k], "a rules name"), specs[k], digest});
    }
    config_.engine_name = plain_text(engine_name, "the engine's name");
    config_.engine_version = plain_text(engine_version, "the engine's version");
    config_.receipt_format = plain_text(receipt_format, "the receipt format");
    config_.key = std::string(view(key));
  }

  py::array_t<std::uint8_t> lines(const py::bytes& text, py::ssize_t begin, py::ssize_t end) const {
    const std::string_view whole = view(text);
    const auto size = static_cast<py::ssize_t>(whole.size());
    if (end < 0) end = size;
    if (begin < 0 || begin > end || end > size) {
      throw py::value_error("FairAudit: begin and end must be offsets in text, begin <= end");
    }
    const std::string_view body =
        whole.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
    std::vector<std::uint8_t> status;
    {
      py::gil_scoped_release release;
      audit_lines(body, config_, &status);
    }
    py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(status.size()));
    if (!status.empty()) std::memcpy(out.mutable_data(), status.data(), status.size());
    return out;
  }

 private:
  AuditConfig config_;
};

}  // namespace

void register_fair(py::module_& m) {
  py::class_<FairAudit>(m, "FairAudit",
                        "The audit's fast path over JSON Lines text (cpp/include/chinese_poker/audit_lines.hpp),\n"
                        "configured once: the rules presets it takes by name, spec and digest, the engine and\n"
                        "receipt format its receipts name, and key, the receipts' HMAC key (empty: none).")
      .def(py::init<const std::vector<std::string>&, const std::vector<RulesSpec>&, const std::vector<std::string>&,
                    const std::string&, const std::string&, const std::string&, const py::bytes&>(),
           py::arg("names"), py::arg("specs"), py::arg("digests"), py::arg("engine_name"), py::arg("engine_version"),
           py::arg("receipt_format"), py::arg("key"))
      .def("lines", &FairAudit::lines, py::arg("text"), py::arg("begin") = 0, py::arg("end") = -1,
           "One status per line of text[begin:end] split at newlines (end -1: the end of text, so that a block\n"
           "of a larger read needs no copy): 1 every check matches, 2 blank, 0 for the general path. Releases\n"
           "the GIL.");
  m.def(
      "fair_audit_lines",
      [](const py::bytes& text, const std::vector<std::string>& names, const std::vector<RulesSpec>& specs,
         const std::vector<std::string>& digests, const std::string& engine_name, const std::string& engine_version,
         const std::string& receipt_format, const py::bytes& key, py::ssize_t begin, py::ssize_t end) {
        return FairAudit(names, specs, digests, engine_name, engine_version, receipt_format, key).lines(text, begin, end);
      },
      py::arg("text"), py::arg("names"), py::arg("specs"), py::arg("digests"), py::arg("engine_name"),
      py::arg("engine_version"), py::arg("receipt_format"), py::arg("key"), py::arg("begin") = 0, py::arg("end") = -1,
      "FairAudit(names, specs, digests, engine_name, engine_version, receipt_format, key).lines(text, begin,\n"
      "end): the statuses of one text's lines.");
  m.def("fair_deal_seats", &deal_seats, py::arg("server_seed"), py::arg("client_seeds"), py::arg("nonce"),
        py::arg("pack"), py::arg("players"), py::arg("most"),
        "chinese_poker.fair.deal's kernel for bytes seeds (16..64 bytes; a list or tuple of 1 to 16 of 1..64\n"
        "bytes), an int nonce 0..2**64-1 and 2 to `most` players: the (players, 13) uint8 array of the first\n"
        "13 * players cards of `pack` shuffled; None for any other argument (the caller checks it).");
  m.def("fair_sha256_accelerated", &fair::sha256_accelerated,
        "Whether the hashes use the processor's SHA extensions (the same digests as the portable code).");
  m.def(
      "fair_sha256",
      [](const py::bytes& data) {
        const std::string_view d = view(data);
        return digest_bytes(fair::sha256(bytes_of(d), d.size()));
      },
      py::arg("data"), "The SHA-256 of data (the deal's own implementation, checked against hashlib).");
  m.def(
      "fair_hmac_sha256",
      [](const py::bytes& key, const py::bytes& data) {
        const std::string_view k = view(key), d = view(data);
        return digest_bytes(fair::hmac_sha256(bytes_of(k), k.size(), bytes_of(d), d.size()));
      },
      py::arg("key"), py::arg("data"), "The HMAC-SHA256 of data under key.");
  m.def(
      "fair_deal",
      [](const py::bytes& key, const py::bytes& prefix, const py::bytes& pack, int count, std::uint64_t nonce) {
        const DealArgs args(key, prefix, pack, count);
        std::string out(static_cast<std::size_t>(count), '\0');
        args.deal(nonce, reinterpret_cast<std::uint8_t*>(out.data()));
        return py::bytes(out);
      },
      py::arg("key"), py::arg("prefix"), py::arg("pack"), py::arg("count"), py::arg("nonce"),
      "The first count cards of pack shuffled by the HMAC-SHA256 stream of key and prefix || u64be(nonce) "
      "|| u32be(counter) (docs/FAIR.md), as bytes.");
  m.def(
      "fair_deals",
      [](const py::bytes& key, const py::bytes& prefix, const py::bytes& pack, int count,
         const py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>& nonces) {
        const DealArgs args(key, prefix, pack, count);
        if (nonces.ndim() != 1) throw py::value_error("fair_deals: nonces must be one-dimensional");
        const auto rounds = static_cast<std::size_t>(nonces.shape(0));
        py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(rounds), static_cast<py::ssize_t>(count)});
        const std::uint64_t* given = nonces.data();
        std::uint8_t* to = out.mutable_data();
        {
          py::gil_scoped_release release;
          for (std::size_t r = 0; r < rounds; ++r) args.deal(given[r], to + r * static_cast<std::size_t>(count));
        }
        return out;
      },
      py::arg("key"), py::arg("prefix"), py::arg("pack"), py::arg("count"), py::arg("nonces"),
      "fair_deal for each of nonces: a (len(nonces), count) uint8 array, the GIL released.");
}

}  // namespace chinese_poker::bindings
