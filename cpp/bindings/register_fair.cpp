// The provably fair deal's kernel (cpp/include/chinese_poker/fair.hpp): SHA-256, HMAC-SHA256 and deals,
// byte strings in and out. chinese_poker.fair checks every argument and builds the message prefix; the
// checks here only keep the kernel within its buffers.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace

void register_fair(py::module_& m) {
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
