/* ub-case
 * category: strict-aliasing
 * standard: C++17 [basic.lval]/8
 * summary: the fixed twin of short-halves.cpp: the half is copied in with memcpy
 * ub: no
 * fixes: short-halves.cpp
 * fixed-line: 18, 17
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

__attribute__((noinline)) static std::uint32_t clear_low_half(std::uint32_t *word)
{
    std::uint16_t *half = reinterpret_cast<std::uint16_t *>(word);
    *word = 0x11112222u;
    std::uint16_t zero = 0;
    std::memcpy(half, &zero, sizeof zero);
    return *word;
}

int main(int argc, char **)
{
    std::uint32_t w = static_cast<std::uint32_t>(argc);
    std::printf("%08x\n", static_cast<unsigned>(clear_low_half(&w)));
    return 0;
}
