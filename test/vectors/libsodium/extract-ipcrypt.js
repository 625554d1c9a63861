'use strict'
// libsodium's own answers for the ipcrypt family:
//   ipcrypt.json  the specification vectors in test/default/ipcrypt.c (deterministic, nd, ndx, pfx,
//                 and pfx prefix preservation). The C sets keys with sodium_hex2bin(), builds
//                 `input` byte by byte and checks each output with check_expected(); this replays
//                 those statements in order, up to the randomised part of the file.
//   ip2bin.json   every sodium_ip2bin(bin, "text", strlen("text")) == 0 | -1 verdict in
//                 test/default/codecs.c, codecs2.c and codecs3.c, and codecs.c's text -> bytes ->
//                 text round trips.
// Run through extract.js.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (f) => fs.readFileSync(path.join(src, 'test', 'default', f), 'utf8')

{
  const c = read('ipcrypt.c')
  const body = c.slice(c.indexOf('test vectors'), c.indexOf('systematic prefix-length coverage'))
  const statement = new RegExp([
    /sodium_hex2bin\((\w+), sizeof \w+,\s*"([0-9a-f]+)"/.source, // 1 var, 2 hex
    /memset\(input, 0, sizeof input\)/.source,
    /input\[(\d+)\]\s*=\s*(0x[0-9a-f]+|\d+);/.source, // 3 index, 4 value
    /crypto_ipcrypt_(nd_|ndx_|pfx_)?encrypt\((\w+), input, (?:(\w+), )?(\w+)\);/.source, // 5 kind, 6 out, 7 tweak, 8 key
    /check_expected\("([^"]+)",\s*(\w+),\s*"([0-9a-f]+)"/.source // 9 name, 10 out, 11 hex
  ].join('|'), 'g')
  const vars = {}
  const input = Buffer.alloc(16)
  const pending = {} // output variable -> the encryption that wrote it
  const rows = []
  for (const m of body.matchAll(statement)) {
    if (m[1]) vars[m[1]] = m[2]
    else if (m[0].startsWith('memset')) input.fill(0)
    else if (m[3]) input[+m[3]] = Number(m[4])
    else if (m[6]) {
      pending[m[6]] = {
        variant: m[5] ? m[5].slice(0, -1) : 'deterministic',
        key: vars[m[8]],
        tweak: m[7] ? vars[m[7]] : undefined,
        input: input.toString('hex')
      }
    } else {
      const enc = pending[m[10]]
      if (!enc || !enc.key) throw new Error(`ipcrypt.c: no encryption for ${m[9]}`)
      delete pending[m[10]]
      rows.push({ name: m[9], ip: /\(([^)]+)\)$/.exec(m[9])[1], ...enc, output: m[11] })
    }
  }
  if (rows.length !== 25) throw new Error(`ipcrypt.c: ${rows.length} vectors, expected 25`)
  write('ipcrypt', 'ipcrypt.c', rows)
}

{
  const rows = []
  const seen = new Set()
  for (const file of ['codecs.c', 'codecs2.c', 'codecs3.c']) {
    const text = read(file)
    for (const m of text.matchAll(/sodium_ip2bin\(\w+, "((?:[^"\\]|\\.)*)",\s*strlen\("\1"\)\) == (0|-1)/g)) {
      const ip = JSON.parse(`"${m[1]}"`) // the texts use only \t and \n escapes, as JSON does
      if (seen.has(ip)) continue
      seen.add(ip)
      rows.push({ ip, valid: m[2] === '0' })
    }
  }
  // sodium_ip2bin(ip_bytes, "X", ...) == 0 followed by sodium_bin2ip() and strcmp(ip_str, "X")
  const roundTrips = []
  const codecs = read('codecs.c')
  const re = /sodium_ip2bin\(ip_bytes, "([^"]+)", strlen\("\1"\)\) == 0\);\s*assert\(sodium_bin2ip\(ip_str, sizeof\(ip_str\), ip_bytes\) != NULL\);\s*assert\(strcmp\(ip_str, "([^"]+)"\) == 0\)/g
  for (const m of codecs.matchAll(re)) roundTrips.push({ ip: m[1], text: m[2] })
  if (rows.length < 50 || roundTrips.length !== 4) throw new Error(`codecs: ${rows.length} ip2bin cases, ${roundTrips.length} round trips`)
  write('ip2bin', 'codecs.c, codecs2.c, codecs3.c', rows.concat(roundTrips.map((r) => ({ ip: r.ip, valid: true, text: r.text }))))
}
