/**
 * An SDK wire type as this service writes it: the SDK marks optional what older servers omit, and
 * this service always sends the fields K.
 */
export type AlwaysSent<T, K extends keyof T> = T & Required<Pick<T, K>>;
