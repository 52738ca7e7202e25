/**
 * The transformers provider's fixed names, in a module without `node:` imports so that the provider's
 * definition (reachable from the root export) can use them.
 */

/** transformers.js: an optional dependency, installed only for this provider. */
export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

/**
 * How to install it, for error messages. ONNX Runtime's install step would download GPU binaries that
 * a CPU run does not use (and that an offline machine cannot fetch); the CPU runtime ships in the package.
 */
export const TRANSFORMERS_INSTALL_HINT = `ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE}`;

/** The ONNX weights each `dtype` reads, as transformers.js names them under the model's `onnx/` folder. */
export const ONNX_FILES = {
  fp32: "model.onnx",
  fp16: "model_fp16.onnx",
  q8: "model_quantized.onnx",
  int8: "model_int8.onnx",
  uint8: "model_uint8.onnx",
  q4: "model_q4.onnx",
} as const;

export type OnnxDtype = keyof typeof ONNX_FILES;
