/* decimal.h -- the non-negative decimal numbers of the text formats (the
 * Sudoku text and CSV bodies, the Killer text body), read from a span of
 * the body as it is: no copy into a fixed buffer (which cut long lines)
 * and no sscanf("%d") (which wraps: "4294967296" read as 0).  Header only:
 * one small pure function.
 *
 * A number is digits only: no sign, no blanks, no "0x"; leading zeros are
 * allowed.  However many digits it has, the value never wraps: anything
 * past the caller's maximum is "too large". */
#ifndef PUZZLED_API_DECIMAL_H
#define PUZZLED_API_DECIMAL_H

#include <stddef.h>

/* Reads s[0..len) as a decimal number from 0 to max (max >= 0).  Returns 0
 * with *out set; -1 when the span is empty or holds anything but digits;
 * -2 when it is digits only but over max.  *out is untouched on failure. */
static inline int api_decimal(const char *s, size_t len, long long max, long long *out) {
    long long x = 0;
    int over = 0;
    if (len == 0) return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        int d = s[i] - '0';
        if (over || d > max || x > (max - d) / 10)
            over = 1; /* x * 10 + d > max, without computing it */
        else
            x = x * 10 + d;
    }
    if (over) return -2;
    *out = x;
    return 0;
}

#endif
