/* Poly1305 (RFC 8439, section 2.5) for our own AEADs and crypto_onetimeauth.
 *
 * The interface every Poly1305 in src/crypto/ answers to: init with the one-time key, update with
 * any number of bytes in any chunking, final writes the 16-byte tag and wipes the state. The
 * state is libsodium's crypto_onetimeauth_poly1305_state (256 bytes), so a state made by one call
 * sequence can be carried by crypto_onetimeauth's streaming functions; an implementation leaves
 * its last 4 bytes alone (src/auth.c stamps them). Answers are byte-identical to
 * crypto_onetimeauth_poly1305_init/update/final; the state's bytes are our own (see
 * poly1305_impl.h), not libsodium's. */
#ifndef NAT_POLY1305_H
#define NAT_POLY1305_H

#include <stddef.h>
#include <sodium.h>

typedef crypto_onetimeauth_poly1305_state nat_poly1305_state;

void nat_poly1305_init(nat_poly1305_state *st, const unsigned char key[32]);
void nat_poly1305_update(nat_poly1305_state *st, const unsigned char *m, size_t len);
void nat_poly1305_final(nat_poly1305_state *st, unsigned char tag[16]);

/* One-shot, as crypto_onetimeauth_poly1305 and crypto_onetimeauth_poly1305_verify (0 or -1). */
int nat_poly1305(unsigned char out[16], const unsigned char *m, unsigned long long mlen,
                 const unsigned char key[32]);
int nat_poly1305_verify(const unsigned char h[16], const unsigned char *m, unsigned long long mlen,
                        const unsigned char key[32]);

/* Whether update and final can run on st without going out of bounds (a state a caller brought
 * from elsewhere): 1 or 0. It cannot tell an initialised state from garbage; src/auth.c stamps. */
int nat_poly1305_state_valid(const nat_poly1305_state *st);

/* Every implementation here keeps the same state (poly1305_impl.h), on every CPU and both
 * backends: src/auth.c stamps states with this value, which differs from the stamps of states
 * libsodium's implementations make (a different layout). A big-endian build's words differ. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NAT_POLY1305_LAYOUT 0x01be
#else
#define NAT_POLY1305_LAYOUT 0x01ee
#endif

#endif
