import { apiPost } from './api-client';

/** POST /api/common/image_upload: exactly one image (multipart), answered with a URL usable in an <img>. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const data = await apiPost<{ url: string }>('/api/common/image_upload', form, { loading: true });
  return data.url;
}
