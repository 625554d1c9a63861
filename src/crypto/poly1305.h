/* Poly1305 (RFC 8439, section 2.5) for our own AEADs and crypto_onetimeauth.
 *
 * The interface every Poly1305 in src/crypto/ answers to: init with the one-time key, update with
 * any number of bytes in any chunking, final writes the 16-byte tag and wipes the state. The
 * state is libsodium's crypto_onetimeauth_poly1305_state (256 bytes), so a state made by one call
 * sequence can be carried by crypto_onetimeauth's streaming functions; an implementation leaves
 * its last 4 bytes alone (src/auth.c stamps them). Answers are byte-identical to
 * crypto_onetimeauth_poly1305_init/update/final. */
#ifndef NAT_POLY1305_H
#define NAT_POLY1305_H

#include <stddef.h>
#include <sodium.h>

typedef crypto_onetimeauth_poly1305_state nat_poly1305_state;

void nat_poly1305_init(nat_poly1305_state *st, const unsigned char key[32]);
void nat_poly1305_update(nat_poly1305_state *st, const unsigned char *m, size_t len);
void nat_poly1305_final(nat_poly1305_state *st, unsigned char tag[16]);

#endif
