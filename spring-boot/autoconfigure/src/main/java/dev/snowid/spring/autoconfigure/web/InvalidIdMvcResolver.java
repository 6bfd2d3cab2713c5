package dev.snowid.spring.autoconfigure.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Spring MVC: answers a malformed {@link dev.snowid.SnowflakeId} parameter with {@link InvalidIdAnswer}'s
 * 400 (Spring's own handling would give a 400 without saying what was wrong). Ordered before Spring
 * MVC's resolvers; any other exception it leaves to them.
 */
public final class InvalidIdMvcResolver implements HandlerExceptionResolver, Ordered {

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler, Exception failure) {
        InvalidIdAnswer answer = InvalidIdAnswer.to(failure);
        if (answer == null || response.isCommitted()) {
            return null;
        }
        try {
            response.setStatus(400);
            response.setContentType("application/json");
            response.getOutputStream().write(answer.json());
            return new ModelAndView(); // empty: the answer is written
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1; // after Boot's DefaultErrorAttributes, which only records the error
    }
}
