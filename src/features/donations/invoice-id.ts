/** An invoice id (`in_…`, Stripe ids are at most 255 characters): the ledger's key of a monthly payment. */
export const INVOICE_ID_PATTERN = /^in_[A-Za-z0-9_]{1,252}$/;
