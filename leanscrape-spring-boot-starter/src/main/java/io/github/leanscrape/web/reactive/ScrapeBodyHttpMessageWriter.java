package io.github.leanscrape.web.reactive;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.endpoint.PendingScrapeResource;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.PendingScrape;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.ScrapeResponse;
import io.github.leanscrape.web.AcceptEncoding;
import io.github.leanscrape.web.ScrapeResponseHeaders;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

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
 * Serves the endpoint's pending scrape on the reactive stack: reads the scrape timeout
 * and the accepted encodings from the request, serves the scrape off the event loop (on
 * the {@link ScrapeScheduler}), and writes buffers that wrap the pooled chunks (no copy).
 * When the write completes, fails, or is cancelled because the client went away, the
 * response goes back to the responder, which records it and releases the scrape.
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageWriter implements HttpMessageWriter<PendingScrapeResource> {

	private final ObjectProvider<ScrapeResponder> responder;

	private final ScrapeScheduler scheduler;

	/**
	 * Create a new writer.
	 * @param responder the responder, looked up when the first scrape is written
	 * @param scheduler the threads that serve scrapes
	 */
	public ScrapeBodyHttpMessageWriter(ObjectProvider<ScrapeResponder> responder, ScrapeScheduler scheduler) {
		this.responder = responder;
		this.scheduler = scheduler;
	}

	@Override
	public List<MediaType> getWritableMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public boolean canWrite(ResolvableType elementType, @Nullable MediaType mediaType) {
		return PendingScrapeResource.class.isAssignableFrom(elementType.toClass());
	}

	@Override
	public Mono<Void> write(Publisher<? extends PendingScrapeResource> inputStream, ResolvableType elementType,
			@Nullable MediaType mediaType, ReactiveHttpOutputMessage message, Map<String, Object> hints) {
		return Mono.from(inputStream).flatMap((resource) -> write(resource.pending(), mediaType, message, null, null));
	}

	@Override
	public Mono<Void> write(Publisher<? extends PendingScrapeResource> inputStream, ResolvableType actualType,
			ResolvableType elementType, @Nullable MediaType mediaType, ServerHttpRequest request,
			ServerHttpResponse response, Map<String, Object> hints) {
		List<String> acceptEncoding = request.getHeaders().get(HttpHeaders.ACCEPT_ENCODING);
		String timeout = request.getHeaders().getFirst(Deadlines.HEADER);
		return Mono.from(inputStream)
			.flatMap((resource) -> write(resource.pending(), mediaType, response, acceptEncoding, timeout));
	}

	private Mono<Void> write(PendingScrape pending, @Nullable MediaType mediaType, ReactiveHttpOutputMessage message,
			@Nullable List<String> acceptEncoding, @Nullable String timeout) {
		ScrapeResponder responder = this.responder.getObject();
		ContentCoding coding = AcceptEncoding.choose(acceptEncoding, responder.codings());
		// Serving may render, or wait for another rendering: never on an event loop.
		return Mono.fromCallable(() -> responder.respond(pending, coding, timeout))
			.subscribeOn(this.scheduler.scheduler())
			.flatMap((response) -> write(response, mediaType, message, !responder.codings().isEmpty())
				.doFinally((signal) -> responder.finish(response, signal != SignalType.ON_COMPLETE)))
			// Cancelled before a response was made: nothing was recorded, the scrape
			// still goes back (releasing it twice does nothing).
			.doFinally((signal) -> pending.release());
	}

	private static Mono<Void> write(ScrapeResponse response, @Nullable MediaType mediaType,
			ReactiveHttpOutputMessage message, boolean compresses) {
		ScrapeResponseHeaders.apply(response, message.getHeaders(), mediaType, compresses);
		DataBufferFactory factory = message.bufferFactory();
		byte[] text = response.message();
		if (text != null) {
			if (message instanceof ServerHttpResponse serverResponse) {
				serverResponse.setStatusCode(HttpStatusCode.valueOf(response.status()));
			}
			return message.writeWith(Mono.just(factory.wrap(text)));
		}
		PooledBody body = response.body();
		if (body == null) {
			return message.setComplete();
		}
		Flux<DataBuffer> buffers = Flux.range(0, body.chunkCount()).map((index) -> wrap(factory, body, index));
		return message.writeWith(buffers);
	}

	private static DataBuffer wrap(DataBufferFactory factory, PooledBody body, int index) {
		return factory.wrap(ByteBuffer.wrap(body.chunk(index), 0, body.chunkLength(index)));
	}

}
