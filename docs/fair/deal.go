// The deal of chinese_poker.fair (docs/FAIR.md) in Go, with the standard library only.
// Reads a JSON list of vectors on stdin; prints the list of their deals (seats of card codes).
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
)

type vector struct {
	ServerSeed  string   `json:"server_seed"`
	ClientSeeds []string `json:"client_seeds"`
	Nonce       string   `json:"nonce"`
	ExtraSuits  string   `json:"extra_suits"`
	Jokers      int      `json:"jokers"`
	Players     int      `json:"players"`
}

func deal(v vector) [][]int {
	key, _ := hex.DecodeString(v.ServerSeed)
	prefix := append([]byte("chinese-poker/deal/v1"), byte(len(v.ClientSeeds)))
	for _, text := range v.ClientSeeds {
		seed, _ := hex.DecodeString(text)
		prefix = append(append(prefix, byte(len(seed))), seed...)
	}
	nonce, _ := strconv.ParseUint(v.Nonce, 10, 64)
	prefix = binary.BigEndian.AppendUint64(prefix, nonce)
	var block []byte
	counter := uint32(0)
	word := func() uint64 { // the next big-endian 32-bit word of the HMAC-SHA256 stream
		if len(block) == 0 {
			mac := hmac.New(sha256.New, key)
			mac.Write(binary.BigEndian.AppendUint32(append([]byte{}, prefix...), counter))
			block, counter = mac.Sum(nil), counter+1
		}
		x := binary.BigEndian.Uint32(block)
		block = block[4:]
		return uint64(x)
	}
	cards := []int{}
	for c := 0; c < 52; c++ {
		cards = append(cards, c)
	}
	for c := 0; c < 52; c++ {
		if strings.ContainsRune(v.ExtraSuits, rune("cdhs"[c%4])) {
			cards = append(cards, c)
		}
	}
	for k := 0; k < v.Jokers; k++ {
		cards = append(cards, 52+k)
	}
	n := len(cards)
	for i := 0; i < 13*v.Players && i < n-1; i++ {
		m := uint64(n - i)
		limit := uint64(1<<32) - uint64(1<<32)%m // words at or past limit are rejected
		x := word()
		for x >= limit {
			x = word()
		}
		j := i + int(x%m)
		cards[i], cards[j] = cards[j], cards[i]
	}
	seats := [][]int{}
	for s := 0; s < v.Players; s++ {
		seats = append(seats, cards[13*s:13*s+13])
	}
	return seats
}

func main() {
	var vectors []vector
	if err := json.NewDecoder(os.Stdin).Decode(&vectors); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	deals := [][][]int{}
	for _, v := range vectors {
		deals = append(deals, deal(v))
	}
	json.NewEncoder(os.Stdout).Encode(deals)
}
