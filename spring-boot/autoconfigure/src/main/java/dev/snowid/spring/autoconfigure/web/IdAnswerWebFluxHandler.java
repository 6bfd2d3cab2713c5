package dev.snowid.spring.autoconfigure.web;

import dev.snowid.protocol.RetryAfter;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Spring WebFlux: answers a malformed {@link dev.snowid.SnowflakeId} parameter (400) and a refused
 * ID (503) with {@link IdAnswer}'s JSON. Ordered before Spring Boot's error handler (order -1);
 * any other exception it passes on.
 */
public final class IdAnswerWebFluxHandler implements WebExceptionHandler, Ordered {

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        IdAnswer answer = IdAnswer.to(failure);
        if (answer == null || exchange.getResponse().isCommitted()) {
            return Mono.error(failure);
        }
        exchange.getResponse().setStatusCode(HttpStatusCode.valueOf(answer.status()));
        if (answer.retryAfterSeconds() > 0) {
            exchange.getResponse().getHeaders().set(RetryAfter.HEADER, Long.toString(answer.retryAfterSeconds()));
        }
        exchange.getResponse().getHeaders().setContentType(MediaType.APPLICATION_JSON);
        DataBuffer body = exchange.getResponse().bufferFactory().wrap(answer.json());
        return exchange.getResponse().writeWith(Mono.just(body));
    }

    @Override
    public int getOrder() {
        return -2;
    }
}
