/**
 * The capture shape: turning a thought, a snippet or a file into a page (front matter, title,
 * the inbox slug). Writing goes through pages.
 * May import: config, db, embedding, errors, intake/import, models, pages, util.
 */
export { shapeCapture, defaultCaptureSlug, captureTitle, isStructured, contentDigest, MAX_CAPTURE_TITLE, DEFAULT_CAPTURE_TYPE } from './shape.js'
export { capturePage, type CaptureRequest, type CaptureReceipt } from './capture-page.js'
export { captureDocument, type DocumentCaptureRequest, type DocumentCaptureReceipt } from './capture-document.js'
export { captureUrl, type UrlCaptureRequest } from './capture-url.js'
export { fetchUrl, isPrivateAddress, webSlugForUrl, MAX_REDIRECTS, type FetchOptions, type FetchedUrl } from './fetch-url.js'
