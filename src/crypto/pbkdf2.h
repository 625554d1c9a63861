#ifndef NAT_CRYPTO_PBKDF2_H
#define NAT_CRYPTO_PBKDF2_H

#endif
