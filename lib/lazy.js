'use strict'
// Properties whose value is made on first read: an enumerable accessor that replaces itself with
// the plain data property it becomes, so Object.keys, `in`, identity and assignment behave as for
// that property. The generated functions are loaded a family at a time this way: compiling all
// of them up front would take a large part of a cold require.

// object -> the names of its properties that are still lazy
const pending = new WeakMap()

function lazyAll (object, names, make) {
  if (names.length === 0) return object
  let waiting = pending.get(object)
  if (waiting === undefined) pending.set(object, waiting = new Set())
  const descriptors = {}
  for (const name of names) {
    const settle = (value) => {
      const ok = Reflect.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true })
      if (ok) waiting.delete(name)
      return ok
    }
    waiting.add(name)
    descriptors[name] = {
      get () {
        const value = make(name)
        settle(value) // fails only on a frozen object, which keeps the accessor
        return value
      },
      set (value) {
        if (!settle(value)) throw new TypeError(`Cannot assign to read only property '${name}' of object`)
      },
      enumerable: true,
      configurable: true
    }
  }
  return Object.defineProperties(object, descriptors)
}

const lazy = (object, name, make) => lazyAll(object, [name], make)

// Whether a property holds a value not made yet (lazyAll's accessor).
function isLazy (object, name) {
  const waiting = pending.get(object)
  return waiting !== undefined && waiting.has(name)
}

// Object.assign(target, source) that leaves source's lazy properties lazy on target too (the
// backends list their functions before their constants, so the order of keys is kept).
function assignLazy (target, source) {
  const waiting = pending.get(source)
  if (waiting === undefined || waiting.size === 0) return Object.assign(target, source)
  const names = Object.keys(source)
  lazyAll(target, names.filter((name) => waiting.has(name)), (name) => source[name])
  for (const name of names) if (!waiting.has(name)) target[name] = source[name]
  return target
}

module.exports = { lazy, lazyAll, isLazy, assignLazy }
