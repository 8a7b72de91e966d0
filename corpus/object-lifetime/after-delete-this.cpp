/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/6
 * summary: a member function deletes its own object and then reads a member
 * ub: yes
 * note: glibc leaves bytes past the first 16 of the freed block alone, so the member still reads 7
 * ub-line: 21
 * twin: after-delete-this.fixed.cpp
 */
#include <cstdio>

struct Job {
    long pad[2];
    int retries;
    int finish();
};

__attribute__((noinline)) int Job::finish()
{
    delete this;
    return retries;
}

int main(int argc, char **)
{
    Job *j = new Job{{0, 0}, 6 + argc};
    std::printf("%d\n", j->finish());
    return 0;
}
