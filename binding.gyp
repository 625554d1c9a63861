{
  # libsodium is built by deps/build.sh (configure + make, every runtime-dispatched fast path)
  # into deps/out/<target>/; `npm run build` runs it before node-gyp.
  "variables": {
    "libsodium_dir%": "deps/out/native"
  },
  "targets": [
    {
      "target_name": "natrium",
      "sources": [
        "src/init.c",
        "src/families.c",
        "src/napi_args.c",
        "src/async.c",
        "src/constants.c",
        "src/aead.c",
        "src/auth.c",
        "src/box.c",
        "src/core.c",
        "src/hash.c",
        "src/ipcrypt.c",
        "src/kdf.c",
        "src/kem.c",
        "src/pwhash.c",
        "src/secretbox.c",
        "src/sign.c",
        "src/stream.c",
        "src/utils.c",
        "src/crypto/pbkdf2.c",
        "src/crypto/tweak.c",
        "src/crypto/chacha20poly1305.c",
        "src/crypto/chacha20_dispatch.c",
        "src/crypto/chacha20_portable.c",
        "src/crypto/chacha20_avx2.c",
        "src/crypto/chacha20_avx512.c",
        "src/crypto/chacha20_simd128.c",
        "src/crypto/secretstream.c",
        "src/crypto/sha2.c",
        "src/crypto/keccak.c",
        "src/crypto/keccak_portable.c",
        "src/crypto/sha3.c",
        "src/crypto/mlkem768.c",
        "src/crypto/mlkem768_dispatch.c",
        "src/crypto/mlkem768_portable.c",
        "src/crypto/mlkem768_avx2.c",
        "src/crypto/mlkem768_simd128.c",
        "src/crypto/keccak4x_avx2.c",
        "src/crypto/keccak4x_avx512vl.c",
        "src/crypto/keccak2x_simd128.c",
        "src/crypto/xwing.c",
        "src/crypto/x25519_dispatch.c",
        "src/crypto/x25519_portable.c",
        "src/crypto/x25519_mulx.c",
        "src/crypto/x25519_ifma.c",
        "src/crypto/x25519_wrap.c",
        "src/crypto/ed25519_mulx.c",
        "src/crypto/blake2b.c",
        "src/crypto/blake2b_dispatch.c",
        "src/crypto/blake2b_portable.c",
        "src/crypto/blake2b_avx2.c",
        "src/crypto/poly1305_dispatch.c",
        "src/crypto/poly1305_portable.c",
        "src/crypto/poly1305_avx2.c",
        "src/crypto/poly1305_avx512ifma.c",
        "src/crypto/poly1305_simd128.c",
        "src/crypto/scrypt.c",
        "src/crypto/scrypt_dispatch.c",
        "src/crypto/scrypt_portable.c",
        "src/crypto/scrypt_sse2.c",
        "src/crypto/scrypt_avx512vl.c",
        "src/crypto/scrypt_simd128.c",
        "src/crypto/aes256gcm_dispatch.c",
        "src/crypto/aes256gcm_soft.c"
      ],
      "include_dirs": ["<(libsodium_dir)/include", "src", "src/crypto"],
      "defines": ["SODIUM_STATIC"],
      "cflags": ["-std=c11", "-O3", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"],
      "cflags!": ["-O2", "-fno-exceptions"],
      "conditions": [
        ["OS=='linux'", {
          # glibc floor 2.28 for the prebuild: see the comment in the file
          "sources": ["src/compat/glibc_fstat.c"],
          "libraries": ["<(module_root_dir)/<(libsodium_dir)/lib/libsodium.a"],
          # --wrap: libsodium's scrypt runs our core (src/crypto/scrypt.h), its X25519 ours where
          # ours is faster (src/crypto/x25519.h), its Ed25519 fixed-base a B and point encoding ours
          # with MULX/ADX (src/crypto/ed25519.h)
          "defines": ["NAT_X25519_WRAP", "NAT_ED25519_WRAP"],
          "ldflags": ["-Wl,--exclude-libs,ALL", "-Wl,--gc-sections",
                      "-Wl,--wrap=escrypt_kdf_sse", "-Wl,--wrap=escrypt_kdf_nosse",
                      "-Wl,--wrap=crypto_scalarmult_curve25519",
                      "-Wl,--wrap=ge25519_scalarmult_base", "-Wl,--wrap=ge25519_p3_tobytes",
                      "-Wl,--wrap=crypto_scalarmult_curve25519_base",
                      "-Wl,--wrap=ge25519_double_scalarmult_vartime", "-Wl,--wrap=ge25519_tobytes",
                      "-Wl,--wrap=ge25519_frombytes_negate_vartime"]
        }],
        ["OS=='mac'", {
          "libraries": ["<(module_root_dir)/<(libsodium_dir)/lib/libsodium.a"],
          "xcode_settings": {
            "GCC_C_LANGUAGE_STANDARD": "c11",
            "GCC_OPTIMIZATION_LEVEL": "3",
            "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
            "OTHER_CFLAGS": ["-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"]
          }
        }],
        ["OS=='win'", {
          # libsodium from its Visual Studio solution (deps/build.sh on Windows)
          "libraries": ["<(module_root_dir)/<(libsodium_dir)/lib/libsodium.lib"],
          "msvs_settings": {
            "VCCLCompilerTool": { "AdditionalOptions": ["/std:c11"] }
          }
        }]
      ]
    }
  ]
}
