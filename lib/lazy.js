'use strict'
// Properties whose value is made on first read: an enumerable accessor that replaces itself with
// the plain data property it becomes, so Object.keys, `in`, identity and assignment behave as for
// that property. The generated functions are loaded a family at a time this way: compiling all
// of them up front would take a large part of a cold require.
function lazy (object, name, make) {
  const settle = (value) => Reflect.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true })
  Object.defineProperty(object, name, {
    get () {
      const value = make()
      settle(value) // fails only on a frozen object, which keeps the accessor
      return value
    },
    set (value) {
      if (!settle(value)) throw new TypeError(`Cannot assign to read only property '${name}' of object`)
    },
    enumerable: true,
    configurable: true
  })
}

// lazy() for many names at once (one Object.defineProperties: about half the cost at load).
function lazyAll (object, names, make) {
  const descriptors = {}
  for (const name of names) {
    const settle = (value) => Reflect.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true })
    descriptors[name] = {
      get () {
        const value = make(name)
        settle(value)
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

// Whether a property holds a value not made yet (lazy's accessor).
const getOwn = Object.getOwnPropertyDescriptor
const isLazy = (object, name) => getOwn(object, name).get !== undefined

// Object.assign(target, source) that leaves source's lazy properties lazy on target too.
// (The backends list their functions before their constants, so the order of keys is kept.)
function assignLazy (target, source) {
  const descriptors = Object.getOwnPropertyDescriptors(source)
  const lazyNames = []
  for (const name in descriptors) if (descriptors[name].get !== undefined && descriptors[name].enumerable) lazyNames.push(name)
  if (lazyNames.length === 0) return Object.assign(target, source)
  lazyAll(target, lazyNames, (name) => source[name])
  for (const name in descriptors) {
    const d = descriptors[name]
    if (d.get === undefined && d.enumerable) target[name] = d.value
  }
  return target
}

module.exports = { lazy, lazyAll, isLazy, assignLazy }
