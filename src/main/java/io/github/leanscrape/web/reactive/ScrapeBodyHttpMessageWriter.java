package io.github.leanscrape.web.reactive;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.exposition.Scraper;
import io.github.leanscrape.web.AcceptEncoding;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpOutputMessage;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Writes a {@link ScrapeBody} to a reactive response as buffers that wrap its chunks (no
 * copy), gzip-compressed when the request accepts gzip. The body is released when the
 * write completes, fails or is cancelled because the client went away.
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageWriter implements HttpMessageWriter<ScrapeBody> {

	private final ObjectProvider<Scraper> scraper;

	/**
	 * Create a new writer.
	 * @param scraper the scraper whose bodies it writes, looked up when the first body is
	 * written
	 */
	public ScrapeBodyHttpMessageWriter(ObjectProvider<Scraper> scraper) {
		this.scraper = scraper;
	}

	@Override
	public List<MediaType> getWritableMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public boolean canWrite(ResolvableType elementType, @Nullable MediaType mediaType) {
		return ScrapeBody.class.isAssignableFrom(elementType.toClass());
	}

	@Override
	public Mono<Void> write(Publisher<? extends ScrapeBody> inputStream, ResolvableType elementType,
			@Nullable MediaType mediaType, ReactiveHttpOutputMessage message, Map<String, Object> hints) {
		return Mono.from(inputStream).flatMap((body) -> write(body, mediaType, message, null));
	}

	@Override
	public Mono<Void> write(Publisher<? extends ScrapeBody> inputStream, ResolvableType actualType,
			ResolvableType elementType, @Nullable MediaType mediaType, ServerHttpRequest request,
			ServerHttpResponse response, Map<String, Object> hints) {
		List<String> acceptEncoding = request.getHeaders().get(HttpHeaders.ACCEPT_ENCODING);
		return Mono.from(inputStream).flatMap((body) -> write(body, mediaType, response, acceptEncoding));
	}

	private Mono<Void> write(ScrapeBody body, @Nullable MediaType mediaType, ReactiveHttpOutputMessage message,
			@Nullable List<String> acceptEncoding) {
		ScrapeBody toWrite = body;
		try {
			HttpHeaders headers = message.getHeaders();
			if (headers.getContentType() == null && mediaType != null && mediaType.isConcrete()) {
				headers.setContentType(mediaType);
			}
			Scraper scraper = this.scraper.getObject();
			if (scraper.canCompress()) {
				headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
				if (AcceptEncoding.acceptsGzip(acceptEncoding)) {
					toWrite = scraper.gzip(body);
					body.release();
					headers.set(HttpHeaders.CONTENT_ENCODING, AcceptEncoding.GZIP);
				}
			}
			headers.setContentLength(toWrite.length());
		}
		catch (RuntimeException ex) {
			body.release();
			return Mono.error(ex);
		}
		ScrapeBody written = toWrite;
		DataBufferFactory factory = message.bufferFactory();
		Flux<DataBuffer> buffers = Flux.range(0, written.chunkCount())
			.map((index) -> wrap(factory, written, index));
		return message.writeWith(buffers).doFinally((signal) -> written.release());
	}

	private static DataBuffer wrap(DataBufferFactory factory, ScrapeBody body, int index) {
		return factory.wrap(ByteBuffer.wrap(body.chunk(index), 0, body.chunkLength(index)));
	}

}
