import { imageUpload } from '@tp/contract/endpoints/identity';
import { call } from './api-client';

/** Exactly one image (multipart, as the endpoint declares), answered with a URL usable in an <img>. */
export async function uploadImage(file: File): Promise<string> {
  const data = await call(imageUpload, { file }, { loading: true });
  return data.url;
}
