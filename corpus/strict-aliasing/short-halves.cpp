/* ub-case
 * category: strict-aliasing
 * standard: C++17 [basic.lval]/8
 * summary: the low half of a uint32_t is rewritten through a uint16_t pointer
 * ub: yes
 * ub-line: 16
 * twin: short-halves.fixed.cpp
 */
#include <cstdint>
#include <cstdio>

__attribute__((noinline)) static std::uint32_t clear_low_half(std::uint32_t *word)
{
    std::uint16_t *half = reinterpret_cast<std::uint16_t *>(word);
    *word = 0x11112222u;
    half[0] = 0;
    return *word;
}

int main(int argc, char **)
{
    std::uint32_t w = static_cast<std::uint32_t>(argc);
    std::printf("%08x\n", static_cast<unsigned>(clear_low_half(&w)));
    return 0;
}
