package io.github.leanscrape.web.reactive;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.endpoint.PendingScrape;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.web.AcceptEncoding;
import io.github.leanscrape.web.ScrapeResponder;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpOutputMessage;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Serves a {@link PendingScrape} on the reactive stack: reads the scrape timeout and the
 * accepted encodings from the request, serves the scrape off the event loop, and writes
 * buffers that wrap the pooled chunks (no copy). The scrape is released when the write
 * completes, fails, or is cancelled because the client went away.
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageWriter implements HttpMessageWriter<PendingScrape> {

	private final ObjectProvider<ScrapeResponder> responder;

	/**
	 * Create a new writer.
	 * @param responder the responder, looked up when the first scrape is written
	 */
	public ScrapeBodyHttpMessageWriter(ObjectProvider<ScrapeResponder> responder) {
		this.responder = responder;
	}

	@Override
	public List<MediaType> getWritableMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public boolean canWrite(ResolvableType elementType, @Nullable MediaType mediaType) {
		return PendingScrape.class.isAssignableFrom(elementType.toClass());
	}

	@Override
	public Mono<Void> write(Publisher<? extends PendingScrape> inputStream, ResolvableType elementType,
			@Nullable MediaType mediaType, ReactiveHttpOutputMessage message, Map<String, Object> hints) {
		return Mono.from(inputStream).flatMap((pending) -> write(pending, mediaType, message, null, null));
	}

	@Override
	public Mono<Void> write(Publisher<? extends PendingScrape> inputStream, ResolvableType actualType,
			ResolvableType elementType, @Nullable MediaType mediaType, ServerHttpRequest request,
			ServerHttpResponse response, Map<String, Object> hints) {
		List<String> acceptEncoding = request.getHeaders().get(HttpHeaders.ACCEPT_ENCODING);
		String timeout = request.getHeaders().getFirst(ScrapeTimeouts.HEADER);
		return Mono.from(inputStream).flatMap((pending) -> write(pending, mediaType, response, acceptEncoding, timeout));
	}

	private Mono<Void> write(PendingScrape pending, @Nullable MediaType mediaType, ReactiveHttpOutputMessage message,
			@Nullable List<String> acceptEncoding, @Nullable String timeout) {
		ScrapeResponder responder = this.responder.getObject();
		// Serving may render, or wait for another rendering: never on an event loop.
		return Mono.fromCallable(() -> responder.respond(pending, acceptEncoding, timeout))
			.subscribeOn(Schedulers.boundedElastic())
			.flatMap((response) -> write(response, mediaType, message, responder.compresses())
				.doFinally((signal) -> responder.finish(response, signal != SignalType.ON_COMPLETE)))
			.doFinally((signal) -> pending.release());
	}

	private static Mono<Void> write(ScrapeResponder.Response response, @Nullable MediaType mediaType,
			ReactiveHttpOutputMessage message, boolean compresses) {
		HttpHeaders headers = message.getHeaders();
		DataBufferFactory factory = message.bufferFactory();
		ScrapeBody body = response.body();
		byte[] text = response.message();
		if (body == null && text != null) {
			if (message instanceof ServerHttpResponse serverResponse) {
				serverResponse.setStatusCode(HttpStatusCode.valueOf(response.status()));
			}
			headers.setContentType(MediaType.TEXT_PLAIN);
			headers.setContentLength(text.length);
			return message.writeWith(Mono.just(factory.wrap(text)));
		}
		if (headers.getContentType() == null && mediaType != null && mediaType.isConcrete()) {
			headers.setContentType(mediaType);
		}
		if (compresses) {
			headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
		}
		if (response.gzip()) {
			headers.set(HttpHeaders.CONTENT_ENCODING, AcceptEncoding.GZIP);
		}
		if (body == null) {
			return message.setComplete();
		}
		headers.setContentLength(body.length());
		Flux<DataBuffer> buffers = Flux.range(0, body.chunkCount()).map((index) -> wrap(factory, body, index));
		return message.writeWith(buffers);
	}

	private static DataBuffer wrap(DataBufferFactory factory, ScrapeBody body, int index) {
		return factory.wrap(ByteBuffer.wrap(body.chunk(index), 0, body.chunkLength(index)));
	}

}
