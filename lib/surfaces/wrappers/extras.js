'use strict'
// What natrium adds to libsodium-wrappers' API beyond the table-built additions (AES-256-GCM,
// HKDF): PBKDF2-HMAC-SHA-256/512, and Promise-returning *_async variants of the slow functions,
// which run on libuv's thread pool with the native backend and in the calling thread (resolving
// afterwards) with the wasm backend: the backends' own *_async functions.
//
// Async work never touches the scratch views the synchronous functions share: its inputs are
// copied (so the caller may reuse them at once) and its outputs are allocated per call.
const { codecs, formatCode, bytesOf, numberOf, inputTypeError, isRefusal, UINT8ARRAY, encode } = require('./io')
const { U8 } = require('../../intrinsics')

function bytesArg (x, name) {
  if (x === null || x === undefined) throw inputTypeError(name, x)
  return new U8(bytesOf(x, name)) // a private copy
}

function formatted (out, code) {
  return code === UINT8ARRAY ? out : encode(out, code)
}

function cString (out) {
  const end = out.indexOf(0)
  return codecs.latin1(out, end < 0 ? out.length : end)
}

// A promise for fn(), rejected (not thrown) when fn throws synchronously.
function settle (fn) {
  try {
    return Promise.resolve(fn())
  } catch (err) {
    return Promise.reject(err)
  }
}

module.exports = function extras (api, binding, built) {
  // read on first call: the wasm backend compiles a family's functions when the first is read
  const raw = (name) => {
    if (!(name in binding)) throw new Error(`main API: the backend lacks ${name}`)
    let fn = null
    return (...args) => (fn || (fn = binding[name]))(...args)
  }
  // The backend's _async function (native: on libuv's thread pool; wasm: run at once).
  const runner = (name) => raw(`${name}_async`)

  // --- PBKDF2-HMAC-SHA-256/512 ---------------------------------------------------------------------
  for (const hash of ['sha256', 'sha512']) {
    const p = `extension_pbkdf2_${hash}`
    const sync = raw(p)
    const run = runner(p)
    const max = binding[`${p}_BYTES_MAX`]
    const minIter = binding[`${p}_ITERATIONS_MIN`]
    const prepare = (keyLength, password, salt, iterations, outputFormat) => {
      const code = formatCode(outputFormat)
      numberOf(keyLength, 'keyLength', 1, max)
      const pw = bytesArg(password, 'password')
      const s = bytesArg(salt, 'salt')
      numberOf(iterations, 'iterations', minIter, Number.MAX_SAFE_INTEGER)
      return { code, args: [new U8(new ArrayBuffer(keyLength)), pw, s, iterations, keyLength] }
    }
    api[`crypto_pbkdf2_hmac_${hash}`] = {
      [`crypto_pbkdf2_hmac_${hash}`] (keyLength, password, salt, iterations, outputFormat) {
        const { code, args } = prepare(keyLength, password, salt, iterations, outputFormat)
        sync(...args)
        return formatted(args[0], code)
      }
    }[`crypto_pbkdf2_hmac_${hash}`]
    api[`crypto_pbkdf2_hmac_${hash}_async`] = {
      [`crypto_pbkdf2_hmac_${hash}_async`] (keyLength, password, salt, iterations, outputFormat) {
        return settle(() => {
          const { code, args } = prepare(keyLength, password, salt, iterations, outputFormat)
          return run(...args).then(() => formatted(args[0], code))
        })
      }
    }[`crypto_pbkdf2_hmac_${hash}_async`]
  }

  // --- password hashing off the main thread -----------------------------------------------------------
  // Each _async takes the synchronous function's arguments and resolves to its result; bad
  // arguments reject with the synchronous function's errors.
  const hashLike = (p, withAlg) => {
    const run = runner(p)
    const limits = (opsLimit, memLimit) => {
      numberOf(opsLimit, 'opsLimit', binding[`${p}_OPSLIMIT_MIN`], binding[`${p}_OPSLIMIT_MAX`])
      numberOf(memLimit, 'memLimit', binding[`${p}_MEMLIMIT_MIN`], binding[`${p}_MEMLIMIT_MAX`])
    }
    return function (keyLength, password, salt, opsLimit, memLimit, ...rest) {
      return settle(() => {
        const algorithm = withAlg ? rest[0] : undefined
        const code = formatCode(withAlg ? rest[1] : rest[0])
        numberOf(keyLength, 'keyLength', binding[`${p}_BYTES_MIN`], binding[`${p}_BYTES_MAX`])
        const pw = bytesArg(password, 'password')
        const s = bytesArg(salt, 'salt')
        limits(opsLimit, memLimit)
        const out = new U8(new ArrayBuffer(keyLength))
        const args = [out, pw, s, opsLimit, memLimit]
        if (withAlg) args.push(numberOf(algorithm, 'algorithm', 0, 0xffffffff))
        return run(...args).then(() => formatted(out, code))
      })
    }
  }
  api.crypto_pwhash_async = hashLike('crypto_pwhash', true)
  api.crypto_pwhash_scryptsalsa208sha256_async = hashLike('crypto_pwhash_scryptsalsa208sha256', false)

  for (const p of ['crypto_pwhash', 'crypto_pwhash_scryptsalsa208sha256']) {
    const size = binding[`${p}_STRBYTES`]
    const strRun = runner(`${p}_str`)
    const verifyRun = runner(`${p}_str_verify`)
    const sync = { str: (...args) => built(`${p}_str`)(...args), verify: api[`${p}_str_verify`] }
    api[`${p}_str_async`] = function (password, opsLimit, memLimit, outputFormat) {
      return settle(() => {
        formatCode(outputFormat)
        const pw = bytesArg(password, 'password')
        // the native _async refuses an empty password (as sodium-native does); libsodium does not
        if (pw.length === 0) return sync.str(pw, opsLimit, memLimit)
        numberOf(opsLimit, 'opsLimit', binding[`${p}_OPSLIMIT_MIN`], binding[`${p}_OPSLIMIT_MAX`])
        numberOf(memLimit, 'memLimit', binding[`${p}_MEMLIMIT_MIN`], binding[`${p}_MEMLIMIT_MAX`])
        const out = new U8(new ArrayBuffer(size))
        return strRun(out, pw, opsLimit, memLimit).then(() => cString(out))
      })
    }
    api[`${p}_str_verify_async`] = function (hashedPassword, password, outputFormat) {
      return settle(() => {
        formatCode(outputFormat)
        if (typeof hashedPassword !== 'string') return sync.verify(hashedPassword, password) // throws its TypeError
        const pw = bytesArg(password, 'password')
        const bytes = codecs.utf8(hashedPassword)
        if (pw.length === 0 || bytes.length >= size) return sync.verify(hashedPassword, pw)
        const str = new U8(new ArrayBuffer(size))
        str.set(bytes)
        return verifyRun(str, pw).catch((err) => {
          if (isRefusal(err)) return false
          throw err
        })
      })
    }
  }
  return api
}
