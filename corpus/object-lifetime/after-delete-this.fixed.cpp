/* ub-case
 * category: object-lifetime
 * standard: C++17 [basic.life]/6
 * summary: the fixed twin of after-delete-this.cpp: the member is read before the delete
 * ub: no
 * fixes: after-delete-this.cpp
 * fixed-line: 21, 19
 */
#include <cstdio>

struct Job {
    long pad[2];
    int retries;
    int finish();
};

__attribute__((noinline)) int Job::finish()
{
    int r = retries;
    delete this;
    return r;
}

int main(int argc, char **)
{
    Job *j = new Job{{0, 0}, 6 + argc};
    std::printf("%d\n", j->finish());
    return 0;
}
