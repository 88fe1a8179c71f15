// jsdom with the browser's fetch API: jsdom has no fetch, Request or Response, so the ones every supported browser
// and Node share are taken from Node. Node's Request only takes Node's AbortSignal, so AbortController is Node's too,
// and jsdom's addEventListener is taught to accept Node's signals. Node's MessageChannel stays out: React's scheduler
// would open a port with it that keeps the test process alive after the run.
const AbstractJSDOMEnvironment = require('@jest/environment-jsdom-abstract').default;
const jsdom = require('jsdom');

const FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoder',
  'TextDecoder',
  'TextEncoderStream',
  'TextDecoderStream',
  'structuredClone',
  'URL',
  'URLSearchParams',
];

class JSDOMWithFetchEnvironment extends AbstractJSDOMEnvironment {
  constructor(config, context) {
    super(config, context, jsdom);
    const global = this.global;
    for (const name of FROM_NODE) if (name in globalThis) global[name] = globalThis[name];

    // jsdom's EventTarget rejects a Node AbortSignal in `{ signal }`: give it a jsdom signal that follows it.
    const JSDOMAbortController = this.dom.window.AbortController;
    const JSDOMAbortSignal = this.dom.window.AbortSignal;
    const mirrors = new WeakMap();
    const mirror = (signal) => {
      if (!mirrors.has(signal)) {
        const controller = new JSDOMAbortController();
        if (signal.aborted) controller.abort(signal.reason);
        else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
        mirrors.set(signal, controller.signal);
      }
      return mirrors.get(signal);
    };
    const prototype = this.dom.window.EventTarget.prototype;
    const addEventListener = prototype.addEventListener;
    prototype.addEventListener = function (type, listener, options) {
      if (options && typeof options === 'object' && options.signal && !(options.signal instanceof JSDOMAbortSignal)) {
        return addEventListener.call(this, type, listener, { ...options, signal: mirror(options.signal) });
      }
      return addEventListener.call(this, type, listener, options);
    };
  }
}

module.exports = JSDOMWithFetchEnvironment;
