#ifndef NAT_CRYPTO_TWEAK_H
#define NAT_CRYPTO_TWEAK_H

#endif
