#ifndef NAT_CRYPTO_SHA2_H
#define NAT_CRYPTO_SHA2_H

#endif
