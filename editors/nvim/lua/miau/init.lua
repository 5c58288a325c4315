-- Neovim support for Miau packs: filetype, comment string, and the miauc
-- language server. Usage (Neovim 0.11+):
--   require('miau').setup({ cmd = { 'miauc', 'lsp' } })
-- Commands: :MiauCheck (the whole pack), :MiauCheckLevel (the level under
-- the cursor, via its code lens), :MiauCancelCheck, :MiauPlay [level] (the
-- terminal player, `miauc play`, on the level under the cursor by default).
local M = {}

M.defaults = {
  cmd = { 'miauc', 'lsp' },
  root_markers = { '.git', 'packs' },
  -- Show the "Check" / "Replay solution" lenses and refresh them on edits.
  codelens = true,
}

local function client_for(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'miau' })[1]
end

local function exec(buf, command, args)
  local client = client_for(buf)
  if not client then
    vim.notify('miau: the language server is not running for this buffer', vim.log.levels.WARN)
    return
  end
  client:request('workspace/executeCommand', { command = command, arguments = args }, function(err, res)
    if err then
      vim.notify('miau: ' .. err.message, vim.log.levels.ERROR)
    elseif res and res.levels then
      local lines = {}
      for _, l in ipairs(res.levels) do
        table.insert(lines, (l.level or '?') .. ': ' .. (l.summary or l.error or ''))
      end
      vim.notify(table.concat(lines, '\n'))
    end
  end, buf)
end

--- The id of the level whose block holds the cursor (or the nearest above).
local function level_at_cursor(buf)
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local lines = vim.api.nvim_buf_get_lines(buf, 0, row, false)
  for i = #lines, 1, -1 do
    local id = lines[i]:match('^%s*level%s+([%w_.-]+)')
    if id then
      return id
    end
  end
  return nil
end

--- Opens `miauc play` on this buffer's file in a terminal split.
local function play(buf, opts, level)
  local file = vim.api.nvim_buf_get_name(buf)
  if file == '' then
    vim.notify('miau: save the buffer to a file first', vim.log.levels.WARN)
    return
  end
  if vim.bo[buf].modified then
    vim.cmd('write')
  end
  local cmd = { opts.cmd[1], 'play', file }
  level = (level and level ~= '') and level or level_at_cursor(buf)
  if level then
    vim.list_extend(cmd, { '--level', level })
  end
  vim.cmd('botright split')
  vim.cmd('enew')
  vim.fn.jobstart(cmd, {
    term = true,
    on_exit = function()
      -- A saved route changed the file: show it.
      vim.schedule(function()
        if vim.api.nvim_buf_is_valid(buf) then
          vim.api.nvim_buf_call(buf, function()
            vim.cmd('checktime')
          end)
        end
      end)
    end,
  })
  vim.cmd('startinsert')
end

--- Register the filetype and start `miauc lsp` for every .miau buffer.
function M.setup(opts)
  opts = vim.tbl_deep_extend('force', M.defaults, opts or {})
  vim.filetype.add({ extension = { miau = 'miau' } })
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'miau',
    callback = function(args)
      local buf = args.buf
      vim.bo[buf].commentstring = '// %s'
      local root = vim.fs.root(buf, opts.root_markers) or vim.fn.getcwd()
      vim.lsp.start({
        name = 'miau',
        cmd = opts.cmd,
        root_dir = root,
      }, { bufnr = buf })
      vim.api.nvim_buf_create_user_command(buf, 'MiauCheck', function()
        exec(buf, 'miau.checkPack', { vim.uri_from_bufnr(buf) })
      end, { desc = 'Check every level of this pack' })
      vim.api.nvim_buf_create_user_command(buf, 'MiauCheckLevel', function(c)
        exec(buf, 'miau.checkLevel', { vim.uri_from_bufnr(buf), c.args })
      end, { nargs = 1, desc = 'Check one level by id' })
      vim.api.nvim_buf_create_user_command(buf, 'MiauCancelCheck', function()
        exec(buf, 'miau.cancelCheck', {})
      end, { desc = 'Cancel running checks' })
      vim.api.nvim_buf_create_user_command(buf, 'MiauPlay', function(c)
        play(buf, opts, c.args)
      end, { nargs = '?', desc = 'Play a level in a terminal (miauc play)' })
      if opts.codelens then
        vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
          buffer = buf,
          callback = function()
            vim.lsp.codelens.refresh({ bufnr = buf })
          end,
        })
      end
    end,
  })
end

return M
