package com.acme.legacy.mp;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;

/** MyBatis-Plus's generic mapper: its insert assigns the ID. */
public interface OrderMapper extends BaseMapper<Order> {
}
