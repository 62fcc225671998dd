export { shapeCapture, defaultCaptureSlug, captureTitle, isStructured, contentDigest, MAX_CAPTURE_TITLE, DEFAULT_CAPTURE_TYPE } from './shape.js'
export { capturePage, type CaptureRequest, type CaptureReceipt } from './capture-page.js'
