package dev.etcdoperator.storage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * One bucket of an S3-compatible store, in memory: the calls the backup storage makes, with S3's semantics (a
 * completed upload or a copy replaces an object whole; listings by prefix in key order), and hooks to make the
 * store misbehave. Only what the storage uses is implemented; anything else fails loudly.
 */
final class InMemoryS3 implements S3Client {
    /** Send user metadata keys back capitalized in HEAD responses, as some stores do. */
    boolean capitalizeMetadataKeys;

    record Obj(byte[] data, Map<String, String> metadata, Instant lastModified) {
    }

    record Upload(String key, String id, Map<String, String> metadata, Instant initiated, Map<Integer, byte[]> parts) {
    }

    final String bucket;
    final Map<String, Obj> objects = new TreeMap<>();
    final Map<String, Upload> uploads = new TreeMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** Runs after every copy, with the destination key: e.g. another writer replacing the object. */
    Consumer<String> afterCopy = key -> { };
    /** Bytes the store drops from the end of a completed upload (a store that loses data). */
    int dropOnComplete;
    /** Bytes a GET's body lacks at its end while its Content-Length announces the whole object (a cut-off read). */
    int cutGetBodyBy;
    /** A copy that fails. */
    boolean failCopy;
    /** Aborts the store refuses (503) before it takes one. */
    int failedAborts;
    /** A completion the store does, answered only after the client stopped waiting. */
    boolean completionAnsweredTooLate;
    /**
     * Lists multipart uploads as MinIO does: a prefix is taken as the whole key, and a listing without one shows
     * only uploads begun since the server started (here: none).
     */
    boolean uploadsListedByExactKeyOnly;
    /** Called with the key of each CreateMultipartUpload, before it is answered. */
    java.util.function.Consumer<String> onCreateMultipartUpload = key -> { };
    /** Each copy as {@code source -> destination}. */
    final List<String> copies = new ArrayList<>();
    /** Each object's tags; a new object has none, a copy takes its source's (S3's default). */
    final Map<String, Map<String, String>> tags = new TreeMap<>();
    /** Runs after tags were set, with the key: e.g. another writer replacing the object. */
    Consumer<String> afterTagging = key -> { };
    /** Tags refused, as by a policy without s3:PutObjectTagging and s3:GetObjectTagging (403). */
    boolean refuseTagging;
    /** Only reading tags refused, as by a policy with s3:PutObjectTagging but without s3:GetObjectTagging (403). */
    boolean refuseTagReads;

    InMemoryS3(String bucket) {
        this.bucket = bucket;
    }

    void put(String key, byte[] data, Map<String, String> metadata, Instant lastModified) {
        objects.put(key, new Obj(data.clone(), Map.copyOf(metadata), lastModified));
        tags.remove(key);
    }

    String startUpload(String key, Map<String, String> metadata, Instant initiated) {
        String id = "u" + ids.incrementAndGet();
        uploads.put(id, new Upload(key, id, Map.copyOf(metadata), initiated, new TreeMap<>()));
        return id;
    }

    private void bucket(String name) {
        if (!bucket.equals(name)) {
            throw NoSuchBucketException.builder().statusCode(404).message("no bucket " + name).build();
        }
    }

    @Override
    public HeadBucketResponse headBucket(HeadBucketRequest r) {
        bucket(r.bucket());
        return HeadBucketResponse.builder().build();
    }

    @Override
    public synchronized CreateMultipartUploadResponse createMultipartUpload(CreateMultipartUploadRequest r) {
        bucket(r.bucket());
        onCreateMultipartUpload.accept(r.key());
        return CreateMultipartUploadResponse.builder().uploadId(startUpload(r.key(), r.metadata(), Instant.now())).build();
    }

    @Override
    public software.amazon.awssdk.services.s3.model.PutObjectResponse putObject(
            software.amazon.awssdk.services.s3.model.PutObjectRequest r, RequestBody body) {
        byte[] bytes;
        try (InputStream in = body.contentStreamProvider().newStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        synchronized (this) {
            bucket(r.bucket());
            objects.put(r.key(), new Obj(bytes, new HashMap<>(r.metadata()), Instant.now()));
            tags.remove(r.key());
        }
        return software.amazon.awssdk.services.s3.model.PutObjectResponse.builder().build();
    }

    @Override
    public UploadPartResponse uploadPart(UploadPartRequest r, RequestBody body) {
        byte[] bytes;
        try (InputStream in = body.contentStreamProvider().newStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        synchronized (this) {
            Upload u = upload(r.uploadId());
            u.parts().put(r.partNumber(), bytes);
        }
        return UploadPartResponse.builder().eTag("e" + r.partNumber()).build();
    }

    @Override
    public synchronized CompleteMultipartUploadResponse completeMultipartUpload(CompleteMultipartUploadRequest r) {
        Upload u = upload(r.uploadId());
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        for (CompletedPart p : r.multipartUpload().parts()) {
            whole.writeBytes(u.parts().get(p.partNumber()));
        }
        byte[] data = whole.toByteArray();
        data = java.util.Arrays.copyOf(data, data.length - Math.min(dropOnComplete, data.length));
        uploads.remove(u.id());
        objects.put(u.key(), new Obj(data, u.metadata(), Instant.now()));
        tags.remove(u.key());
        if (completionAnsweredTooLate) {
            throw software.amazon.awssdk.core.exception.ApiCallTimeoutException.create(1000);
        }
        return CompleteMultipartUploadResponse.builder().build();
    }

    @Override
    public synchronized AbortMultipartUploadResponse abortMultipartUpload(AbortMultipartUploadRequest r) {
        if (failedAborts > 0) {
            failedAborts--;
            throw software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(503).message("slow down")
                    .build();
        }
        upload(r.uploadId());
        uploads.remove(r.uploadId());
        return AbortMultipartUploadResponse.builder().build();
    }

    private Upload upload(String id) {
        Upload u = uploads.get(id);
        if (u == null) {
            throw NoSuchUploadException.builder().statusCode(404).message("no upload " + id).build();
        }
        return u;
    }

    @Override
    public synchronized ListMultipartUploadsResponse listMultipartUploads(ListMultipartUploadsRequest r) {
        bucket(r.bucket());
        String prefix = r.prefix() == null ? "" : r.prefix();
        List<MultipartUpload> found = new ArrayList<>();
        for (Upload u : uploads.values()) {
            if (uploadsListedByExactKeyOnly ? u.key().equals(prefix) : u.key().startsWith(prefix)) {
                found.add(MultipartUpload.builder().key(u.key()).uploadId(u.id()).initiated(u.initiated()).build());
            }
        }
        return ListMultipartUploadsResponse.builder().bucket(bucket).uploads(found).isTruncated(false).build();
    }

    @Override
    public synchronized ListObjectsV2Response listObjectsV2(ListObjectsV2Request r) {
        bucket(r.bucket());
        String prefix = r.prefix() == null ? "" : r.prefix();
        List<S3Object> found = new ArrayList<>();
        objects.forEach((key, o) -> {
            if (key.startsWith(prefix)) {
                found.add(S3Object.builder().key(key).size((long) o.data().length).lastModified(o.lastModified()).build());
            }
        });
        return ListObjectsV2Response.builder().contents(found).keyCount(found.size()).isTruncated(false).build();
    }

    @Override
    public synchronized HeadObjectResponse headObject(HeadObjectRequest r) {
        bucket(r.bucket());
        Obj o = existing(r.key());
        return HeadObjectResponse.builder().contentLength((long) o.data().length)
                .metadata(capitalizeMetadataKeys ? capitalized(o.metadata()) : o.metadata())
                .lastModified(o.lastModified()).build();
    }

    /** Keys as some stores send the headers back: X-Amz-Meta-Etcd-Backup-Owner gives Etcd-Backup-Owner. */
    private static Map<String, String> capitalized(Map<String, String> metadata) {
        Map<String, String> out = new HashMap<>();
        metadata.forEach((k, v) -> {
            StringBuilder b = new StringBuilder();
            for (String part : k.split("-", -1)) {
                b.append(b.length() == 0 ? "" : "-").append(part.isEmpty() ? part
                        : Character.toUpperCase(part.charAt(0)) + part.substring(1));
            }
            out.put(b.toString(), v);
        });
        return out;
    }

    @Override
    public synchronized software.amazon.awssdk.core.ResponseInputStream<software.amazon.awssdk.services.s3.model.GetObjectResponse> getObject(
            software.amazon.awssdk.services.s3.model.GetObjectRequest r) {
        bucket(r.bucket());
        Obj o = existing(r.key());
        var response = software.amazon.awssdk.services.s3.model.GetObjectResponse.builder()
                .contentLength((long) o.data().length).metadata(o.metadata()).eTag("\"e" + o.hashCode() + "\"")
                .build();
        return new software.amazon.awssdk.core.ResponseInputStream<>(response,
                software.amazon.awssdk.http.AbortableInputStream.create(new java.io.ByteArrayInputStream(o.data(), 0,
                        Math.max(0, o.data().length - cutGetBodyBy))));
    }

    @Override
    public CopyObjectResponse copyObject(CopyObjectRequest r) {
        synchronized (this) {
            if (failCopy) {
                throw software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(500)
                        .message("copy failed").build();
            }
            Obj from = existing(r.sourceKey());
            objects.put(r.destinationKey(), new Obj(from.data(), new HashMap<>(r.metadata()), Instant.now()));
            Map<String, String> sourceTags = tags.get(r.sourceKey());
            if (sourceTags == null) {
                tags.remove(r.destinationKey());
            } else {
                tags.put(r.destinationKey(), sourceTags);
            }
            copies.add(r.sourceKey() + " -> " + r.destinationKey());
        }
        afterCopy.accept(r.destinationKey());
        return CopyObjectResponse.builder().build();
    }

    @Override
    public synchronized DeleteObjectResponse deleteObject(DeleteObjectRequest r) {
        bucket(r.bucket());
        objects.remove(r.key());
        tags.remove(r.key());
        return DeleteObjectResponse.builder().build();
    }

    @Override
    public synchronized software.amazon.awssdk.services.s3.model.PutObjectTaggingResponse putObjectTagging(
            software.amazon.awssdk.services.s3.model.PutObjectTaggingRequest r) {
        bucket(r.bucket());
        refuseTagsIfAsked();
        existing(r.key());
        Map<String, String> set = new HashMap<>();
        r.tagging().tagSet().forEach(t -> set.put(t.key(), t.value()));
        tags.put(r.key(), Map.copyOf(set));
        afterTagging.accept(r.key());
        return software.amazon.awssdk.services.s3.model.PutObjectTaggingResponse.builder().build();
    }

    @Override
    public synchronized software.amazon.awssdk.services.s3.model.GetObjectTaggingResponse getObjectTagging(
            software.amazon.awssdk.services.s3.model.GetObjectTaggingRequest r) {
        bucket(r.bucket());
        refuseTagsIfAsked();
        if (refuseTagReads) {
            throw software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(403)
                    .message("Access Denied").build();
        }
        existing(r.key());
        return software.amazon.awssdk.services.s3.model.GetObjectTaggingResponse.builder()
                .tagSet(tags.getOrDefault(r.key(), Map.of()).entrySet().stream()
                        .map(e -> software.amazon.awssdk.services.s3.model.Tag.builder().key(e.getKey())
                                .value(e.getValue()).build()).toList()).build();
    }

    /** The object at the key, or S3's 404. */
    private Obj existing(String key) {
        Obj o = objects.get(key);
        if (o == null) {
            throw NoSuchKeyException.builder().statusCode(404).message("no object " + key).build();
        }
        return o;
    }

    private void refuseTagsIfAsked() {
        if (refuseTagging) {
            throw software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(403)
                    .message("Access Denied").build();
        }
    }

    @Override
    public String serviceName() {
        return "s3";
    }

    @Override
    public void close() {
    }
}
