/** Where an upload's file is kept in the FILES bucket. */
export const uploadKey = (tenantId: string, uploadId: string) => `${tenantId}/uploads/${uploadId}`;
